/**
 * The lab's terminal (@xterm/xterm): the CLI's commands on a host you pick, against the same
 * running cluster. Line editing, history (↑/↓), Ctrl+C and Ctrl+L; output exactly as the tool
 * prints it. Loaded lazily, with xterm, when the tab first opens.
 */
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { terminalText } from '../i18n';
import { useLab } from '../store';

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

export default function TerminalPanel() {
  const { t, i18n } = useTranslation();
  const topology = useLab((s) => s.topology);
  const runTerminal = useLab((s) => s.runTerminal);
  const [host, setHost] = useState('node-1');
  const hostRef = useRef(host);
  hostRef.current = host;
  const box = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | undefined>(undefined);

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
    // Columns and rows from the box's size (what xterm's fit addon computes), so long
    // lines wrap where the panel ends.
    const fit = () => {
      const el = box.current;
      const screen = xterm.element?.querySelector<HTMLElement>('.xterm-screen');
      if (!el || !screen || screen.clientWidth === 0) return;
      const cellW = screen.clientWidth / xterm.cols;
      const cellH = screen.clientHeight / xterm.rows;
      const cols = Math.max(20, Math.floor((el.clientWidth - 8) / cellW));
      const rows = Math.max(5, Math.floor((el.clientHeight - 8) / cellH));
      if (cols !== xterm.cols || rows !== xterm.rows) xterm.resize(cols, rows);
    };
    const observer = new ResizeObserver(fit);
    observer.observe(box.current);
    xterm.textarea?.setAttribute('aria-label', t('terminal.input'));
    term.current = xterm;
    let line = '';
    const history: string[] = [];
    let back = 0;
    let busy = false;
    const prompt = () => xterm.write(`\x1b[32m${hostRef.current}$\x1b[0m `);
    const replace = (text: string) => {
      xterm.write('\b \b'.repeat(line.length));
      line = text;
      xterm.write(text);
    };
    prompt();
    const sub = xterm.onData((data) => {
      if (busy) return;
      if (data === '\r') {
        xterm.write('\r\n');
        const cmd = line.trim();
        line = '';
        back = 0;
        if (cmd === '') return prompt();
        history.push(cmd);
        busy = true;
        void runTerminal(hostRef.current, cmd, xterm.cols).then((answer) => {
          if (answer) xterm.write(crlf(terminalText(answer, i18n.language)));
          busy = false;
          prompt();
        });
      } else if (data === '\x7f') {
        if (line.length > 0) {
          line = line.slice(0, -1);
          xterm.write('\b \b');
        }
      } else if (data === '\x03') {
        xterm.write('^C\r\n');
        line = '';
        prompt();
      } else if (data === '\x0c') {
        xterm.clear();
      } else if (data === '\x1b[A') {
        if (back < history.length) replace(history[history.length - ++back] ?? '');
      } else if (data === '\x1b[B') {
        if (back > 0) replace(--back === 0 ? '' : (history[history.length - back] ?? ''));
      } else if (!data.startsWith('\x1b')) {
        const printable = data.replace(/[\r\n]+/g, ' ');
        line += printable;
        xterm.write(printable);
      }
    });
    return () => {
      observer.disconnect();
      sub.dispose();
      xterm.dispose();
    };
  }, [runTerminal]);

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
              setHost(e.target.value);
              term.current?.write(`\r\n\x1b[32m${e.target.value}$\x1b[0m `);
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
