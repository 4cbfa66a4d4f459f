/**
 * The lab's terminal (@xterm/xterm): the CLI's commands on a host you pick, against the same
 * running cluster. Line editing as bash's (../terminal/line-editor.ts: ←/→, Home/End,
 * Ctrl+U/K/W, history with ↑/↓), Ctrl+C and Ctrl+L; output exactly as the tool prints it. After
 * an edit the prompt and line are redrawn from the line buffer (../terminal/screen-layout.ts),
 * so the screen shows what will run. Keys pressed while a command runs are kept and read at the
 * next prompt, as a tty and readline do (../terminal/type-ahead.ts). Loaded lazily, with xterm, when the tab first opens.
 */
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { terminalText } from '../i18n';
import { useLab, type TerminalDraft } from '../store';
import { fitToBox } from '../terminal/fit';
import { LineEditor } from '../terminal/line-editor';
import { drawLine, redrawLine, type PromptLine } from '../terminal/screen-layout';
import { TYPE_AHEAD_LIMIT, TypeAhead } from '../terminal/type-ahead';

declare global {
  interface Window {
    /** The terminal, for the end-to-end tests to read its buffer (what the screen shows). */
    __labTerminal?: Terminal;
  }
}

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

export default function TerminalPanel() {
  const { t, i18n } = useTranslation();
  const topology = useLab((s) => s.topology);
  const runTerminal = useLab((s) => s.runTerminal);
  const draft = useLab((s) => s.terminalDraft);
  const clearDraft = useLab((s) => s.clearTerminalDraft);
  const [host, setHost] = useState('node-1');
  const hostRef = useRef(host);
  hostRef.current = host;
  const box = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | undefined>(undefined);
  // A new host's prompt, with the line typed so far (set once the terminal is made).
  const onHostChange = useRef<(next: string) => void>(() => undefined);
  // A line a lesson hands over for the learner to complete (set once the terminal is made).
  const onDraft = useRef<(draft: TerminalDraft) => void>(() => undefined);

  useEffect(() => {
    if (box.current === null) return;
    const xterm = new Terminal({
      convertEol: false,
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace',
      fontSize: 13,
      cursorBlink: true,
      scrollback: 5000,
      theme: { background: '#0d1117', foreground: '#e6edf3' },
    });
    xterm.open(box.current);
    const observer = new ResizeObserver(() => fitToBox(xterm, box.current));
    observer.observe(box.current);
    xterm.textarea?.setAttribute('aria-label', t('terminal.input'));
    term.current = xterm;
    window.__labTerminal = xterm;
    const editor = new LineEditor();
    let busy = false;
    /** The lines of a command whose here-document is still open (bash reads on after `> `). */
    let hereDocLines: string | undefined;
    // Where the prompt starts: its column, and (rows counted from there) the rest follows.
    let startCol = 0;
    const promptLine = (): PromptLine => {
      // bash's PS2 while a here-document is open: plain, as bash prints it.
      const continuing = hereDocLines !== undefined;
      const prompt = continuing ? '> ' : `${hostRef.current}$ `;
      return {
        cols: xterm.cols,
        startCol,
        prompt,
        styledPrompt: continuing ? prompt : `\x1b[32m${prompt}\x1b[0m`,
        chars: [...editor.line],
        cursor: editor.cursor,
      };
    };
    // What the screen shows now, to move back over it at the next edit.
    let shown = promptLine();
    const draw = (text: string) => {
      xterm.write(text);
      shown = promptLine();
    };
    /** A fresh prompt where the cursor is (column `col`), and the line after it. */
    const prompt = (col: number) => {
      startCol = col;
      draw(drawLine(promptLine()));
    };
    /** Moves to the end of the line, so that what follows is written below all of it. */
    const toEnd = () => {
      editor.moveToEnd();
      redraw();
    };
    // After a resize xterm has reflowed the rows at the new width: count the old line at it.
    const redraw = () => draw(redrawLine({ ...shown, cols: xterm.cols }, promptLine()));
    onHostChange.current = (next) => {
      // While a command runs there is no prompt: the one after it names the new host.
      if (busy) return;
      toEnd();
      hostRef.current = next;
      // A here-document being typed was for the other host's shell.
      hereDocLines = undefined;
      xterm.write('\r\n');
      prompt(0);
    };
    // A draft that comes while a command runs waits for the prompt after it.
    let pendingDraft: TerminalDraft | undefined;
    const loadPendingDraft = () => {
      const d = pendingDraft;
      if (d === undefined || busy) return;
      pendingDraft = undefined;
      if (d.host !== hostRef.current) {
        onHostChange.current(d.host);
        setHost(d.host);
      }
      // The draft replaces the line typed so far, as recalling a history entry would.
      editor.load(d.line, d.cursor);
      redraw();
      xterm.focus();
    };
    onDraft.current = (d) => {
      pendingDraft = d;
      loadPendingDraft();
    };
    prompt(0);
    const typeAhead = new TypeAhead();
    let echoTypeAhead = false;
    /** What the shell says after the command, on lines of their own, before its prompt. */
    const typeAheadNotes = (): string[] => {
      const { interrupted, droppedBytes } = typeAhead.takeReport();
      const notes: string[] = [];
      if (interrupted) notes.push(i18n.t('terminal.typeAheadInterrupted'));
      if (droppedBytes > 0)
        notes.push(
          i18n.t('terminal.typeAheadDropped', { bytes: droppedBytes, limit: TYPE_AHEAD_LIMIT }),
        );
      return notes;
    };
    /** Hands the kept keys to the line editor until one runs a command (then the rest waits). */
    const readTypeAhead = () => {
      for (let key = typeAhead.next(); key !== undefined; key = typeAhead.next()) {
        press(key);
        if (busy) return typeAhead.commit();
      }
    };
    const press = (data: string) => {
      const outcome = editor.press(data);
      if (outcome.kind === 'append') return draw(outcome.text);
      if (outcome.kind === 'edit') return redraw();
      if (outcome.kind === 'clear-screen') {
        // Ctrl+L: scrollback and screen erased (CSI 3 J, CSI 2 J), the line redrawn at the top.
        xterm.write('\x1b[3J\x1b[H\x1b[2J');
        return prompt(0);
      }
      if (outcome.kind === 'interrupt') {
        toEnd();
        xterm.write('^C\r\n');
        editor.reset();
        // Ctrl+C abandons a here-document being typed, as in bash.
        hereDocLines = undefined;
        return prompt(0);
      }
      if (outcome.kind !== 'run') return;
      toEnd();
      xterm.write('\r\n');
      editor.reset();
      // A here-document's lines count as typed, empty or indented (YAML keeps its indent).
      const text = hereDocLines === undefined ? outcome.command : `${hereDocLines}\n${outcome.line}`; // prettier-ignore
      if (text === '') return prompt(0);
      busy = true;
      echoTypeAhead = true;
      void runTerminal(hostRef.current, text, xterm.cols).then((answer) => {
        hereDocLines = answer?.continues === true ? text : undefined;
        if (hereDocLines !== undefined) {
          busy = false;
          prompt(0);
          return readTypeAhead();
        }
        // Keys from now on are kept unechoed: an echo written after the output would land
        // between it and the prompt measured from it (readline shows them at the prompt).
        echoTypeAhead = false;
        const output = answer ? crlf(terminalText(answer, i18n.language)) : '';
        // The prompt follows the output on its last row, as in a shell; the write callback
        // runs once xterm has parsed the output, so its cursor is where the prompt starts.
        xterm.write(output, () => {
          let col = xterm.buffer.active.cursorX;
          const notes = typeAheadNotes();
          if (notes.length > 0) {
            // After the output (and any echo of ^C), each note on a row of its own.
            xterm.write(`${col === 0 ? '' : '\r\n'}${notes.join('\r\n')}\r\n`);
            col = 0;
          }
          // Just past the last column (pending wrap) the prompt starts the next row.
          if (col >= xterm.cols) xterm.write('\r\n');
          busy = false;
          prompt(col >= xterm.cols ? 0 : col);
          // A lesson's line handed over during the command first, then the keys typed
          // meanwhile, which edit it as they would have at the prompt.
          loadPendingDraft();
          readTypeAhead();
        });
      });
    };
    const sub = xterm.onData((data) => {
      // While a command runs the keys wait, echoed as the tty echoes them (./terminal/type-ahead.ts).
      if (busy) {
        const echo = typeAhead.receive(data);
        if (echoTypeAhead) xterm.write(echo);
        return;
      }
      press(data);
    });
    return () => {
      observer.disconnect();
      sub.dispose();
      if (window.__labTerminal === xterm) delete window.__labTerminal;
      xterm.dispose();
    };
  }, [runTerminal]);

  // After the terminal is made (the effect above runs first), also when the tab opens for it.
  useEffect(() => {
    if (draft === undefined) return;
    onDraft.current(draft);
    clearDraft();
  }, [draft, clearDraft]);

  // The input's name follows the language (the terminal itself is made once).
  useEffect(() => {
    term.current?.textarea?.setAttribute('aria-label', t('terminal.input'));
  }, [t]);

  const hosts = topology
    ? [
        ...topology.nodes.map((n) => n.name),
        ...topology.nodes.flatMap((n) => n.pods.map((p) => p.target)),
        ...topology.externals.map((e) => e.name),
      ]
    : [];
  return (
    <div className="terminal-panel">
      <div className="panel-tools">
        <label>
          {t('terminal.host')}
          <select
            aria-label={t('terminal.host')}
            value={host}
            onChange={(e) => {
              onHostChange.current(e.target.value);
              setHost(e.target.value);
            }}
          >
            {hosts.map((h) => (
              <option key={h}>{h}</option>
            ))}
          </select>
        </label>
        <span className="muted">{t('terminal.hint')}</span>
      </div>
      {/* Where the lab simplifies, it says so: a pod's programs are the lab's, not its image's. */}
      {host.startsWith('pod/') && (
        <p className="muted terminal-pod-tools" data-testid="terminal-pod-tools">
          {t('terminal.podTools')}
        </p>
      )}
      <div className="xterm-box" ref={box} data-testid="terminal" />
    </div>
  );
}
