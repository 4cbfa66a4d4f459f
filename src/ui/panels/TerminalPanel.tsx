/**
 * The lab's terminal (@xterm/xterm): the CLI's commands on a host you pick, against the same
 * running cluster. Line editing as bash's (../terminal/line-editor.ts: ←/→, Home/End,
 * Ctrl+U/K/W, history with ↑/↓), Ctrl+C and Ctrl+L; output exactly as the tool prints it. After
 * an edit the prompt and line are redrawn from the line buffer (../terminal/screen-layout.ts),
 * so the screen shows what will run. Keys pressed while a command runs are kept and read at the
 * next prompt, as a tty and readline do (../terminal/type-ahead.ts). A paste keeps its lines
 * until Enter runs them one by one, as bash 5.2's bracketed paste (../terminal/shell-input.ts). Loaded lazily, with xterm, when the tab first opens.
 */
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { terminalText } from '../i18n';
import { useLab, type TerminalDraft } from '../store';
import { fitToBox } from '../terminal/fit';
import { LineEditor, PASTE_START, unbracketed } from '../terminal/line-editor';
import { appendedText, drawLine, redrawLine, type PromptLine } from '../terminal/screen-layout';
import { ShellInput } from '../terminal/shell-input';
import { keysOf, TYPE_AHEAD_LIMIT, TypeAhead } from '../terminal/type-ahead';

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
    /** The lines Enter handed to the shell, and a here-document still open (read on after `> `). */
    const shellInput = new ShellInput();
    // Where the prompt starts: its column, and (rows counted from there) the rest follows.
    let startCol = 0;
    const promptLine = (): PromptLine => {
      // bash's PS2 while a here-document is open: plain, as bash prints it.
      const continuing = shellInput.continuing;
      const prompt = continuing ? '> ' : `${hostRef.current}$ `;
      return {
        cols: xterm.cols,
        startCol,
        prompt,
        styledPrompt: continuing ? prompt : `\x1b[32m${prompt}\x1b[0m`,
        chars: [...editor.line],
        cursor: editor.cursor,
        highlight: editor.highlight,
      };
    };
    // What the screen shows now, to move back over it at the next edit.
    let shown = promptLine();
    const draw = (text: string) => {
      xterm.write(text);
      shown = promptLine();
    };
    /**
     * A fresh prompt where the cursor is (column `col`), and the line after it. As bash 5.2
     * does before each prompt, bracketed-paste mode on: xterm then wraps a paste in
     * "\x1b[200~…\x1b[201~", which the line editor keeps whole, line breaks included.
     */
    const prompt = (col: number) => {
      startCol = col;
      draw(`\x1b[?2004h${drawLine(promptLine())}`);
    };
    /** Moves to the end of the line, so that what follows is written below all of it. */
    const toEnd = () => {
      // Already there, nothing highlighted: no redraw (a tall pasted block keeps its scrollback).
      if (editor.cursor === editor.line.length && shown.highlight === undefined) return;
      editor.moveToEnd();
      redraw();
    };
    // After a resize xterm has reflowed the rows at the new width: count the old line at it.
    const redraw = () => {
      const screen = { rows: xterm.rows, cursorRow: xterm.buffer.active.cursorY };
      draw(redrawLine({ ...shown, cols: xterm.cols }, promptLine(), screen));
    };
    onHostChange.current = (next) => {
      // While a command runs there is no prompt: the one after it names the new host.
      if (busy) return;
      toEnd();
      hostRef.current = next;
      // A here-document being typed was for the other host's shell.
      shellInput.discard();
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
      // A paste at the end is highlighted, as bash 5.2 shows it until the next key.
      if (outcome.kind === 'append') return draw(appendedText(outcome.text, !!editor.highlight));
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
        shellInput.discard();
        return prompt(0);
      }
      if (outcome.kind !== 'run') return;
      toEnd();
      // A pasted block that ends in a line break leaves the cursor alone on an empty last row:
      // bash's output starts on that row (readline's _rl_update_final), not below it.
      if (outcome.lines.at(-1) !== '' || outcome.lines.length === 1) xterm.write('\r\n');
      editor.reset();
      shellInput.enter(outcome.lines);
      readShellInput(0);
    };
    /**
     * Runs the next line Enter handed over, as typed lines run (so `continues`, errors and a
     * lesson's checks are the same for pasted ones); once all ran, the prompt at column `col`.
     */
    const readShellInput = (col: number): void => {
      const text = shellInput.next();
      if (text === undefined) {
        busy = false;
        prompt(col);
        // A lesson's line handed over during the command first, then the keys typed
        // meanwhile, which edit it as they would have at the prompt.
        loadPendingDraft();
        return readTypeAhead();
      }
      // bash turns bracketed-paste mode off while a command runs: a paste then reaches the
      // tty as typed keys, and its lines run one by one (./terminal/type-ahead.ts).
      if (!busy) xterm.write('\x1b[?2004l');
      busy = true;
      echoTypeAhead = true;
      void runTerminal(hostRef.current, text, xterm.cols).then((answer) => {
        const entry = shellInput.answered(answer?.continues === true);
        if (entry !== undefined) editor.remember(entry);
        // A here-document goes on: its next line, or the `> ` prompt.
        if (shellInput.continuing) return readShellInput(0);
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
          readShellInput(col >= xterm.cols ? 0 : col);
        });
      });
    };
    const sub = xterm.onData((data) => {
      // While a command runs the keys wait, echoed as the tty echoes them (./terminal/type-ahead.ts).
      // A paste that xterm still bracketed (it had not yet read the "\x1b[?2004l") is typed keys.
      if (busy) {
        const echo = typeAhead.receive(unbracketed(data));
        if (echoTypeAhead) xterm.write(echo);
        return;
      }
      if (data.startsWith(PASTE_START) || !/[\r\n]/.test(data)) return press(data);
      // Lines pasted without brackets (the mode not yet on) come as keys, each "\r" an Enter, as
      // readline reads them: each line runs, and the keys after it wait for the next prompt,
      // unechoed (they reached the tty while readline had echo off).
      for (const key of keysOf(data)) {
        if (busy) typeAhead.receive(key);
        else press(key);
      }
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
