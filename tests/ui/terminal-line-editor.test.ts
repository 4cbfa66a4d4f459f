/**
 * The terminal's line editing keys, as xterm's onData sends them, with readline's (emacs mode)
 * meaning: bash(1), "Commands for Moving", "Killing and Yanking" (unix-line-discard,
 * kill-line, unix-word-rubout), and history.
 */
import { describe, expect, it } from 'vitest';
import { LineEditor, printable, unbracketed } from '../../src/ui/terminal/line-editor';

function typed(...keys: string[]): LineEditor {
  const editor = new LineEditor();
  for (const key of keys) editor.press(key);
  return editor;
}
const text = (editor: LineEditor) => editor.line.join('');

describe('LineEditor', () => {
  it('appends typed text at the end, and says that writing it is enough', () => {
    const editor = new LineEditor();
    expect(editor.press('echo 你好')).toEqual({ kind: 'append', text: 'echo 你好' });
    expect(editor.cursor).toBe(7);
  });

  it('Backspace deletes one character, a wide one or a surrogate pair included', () => {
    const editor = typed('echo 你好𠀀世界', '\x7f', '\x7f', '\x7f', '\x7f');
    expect(text(editor)).toBe('echo 你');
    expect(editor.press('\x7f')).toEqual({ kind: 'edit' });
    expect(typed('\x7f').line).toEqual([]);
  });

  it('moves with ←/→, Home/End (CSI and SS3) and Ctrl+A/E/B/F, and inserts at the cursor', () => {
    const editor = typed('echo 世界', '\x1b[D', '\x1bOD', '\x02');
    expect(editor.cursor).toBe(4);
    expect(editor.press('你')).toEqual({ kind: 'edit' });
    expect(text(editor)).toBe('echo你 世界');
    for (const [key, at] of [
      ['\x1b[H', 0],
      ['\x1b[C', 1],
      ['\x06', 2],
      ['\x1b[F', 8],
      ['\x1b[C', 8],
      ['\x01', 0],
      ['\x1b[D', 0],
      ['\x05', 8],
      ['\x1b[1~', 0],
      ['\x1b[4~', 8],
    ] as const) {
      editor.press(key);
      expect(editor.cursor, JSON.stringify(key)).toBe(at);
    }
  });

  it('Delete removes the character under the cursor', () => {
    expect(text(typed('abc', '\x01', '\x1b[3~'))).toBe('bc');
  });

  it('Ctrl+U cuts to the start, Ctrl+K to the end, Ctrl+W the blank-delimited word before', () => {
    const u = typed('echo one two', '\x1b[D', '\x1b[D', '\x1b[D', '\x15');
    expect([text(u), u.cursor]).toEqual(['two', 0]);
    const k = typed('echo one two', '\x01', '\x1b[C', '\x0b');
    expect([text(k), k.cursor]).toEqual(['e', 1]);
    // unix-word-rubout: back over the trailing blanks, then over "a/b" (one word: no blank in it).
    const w = typed('echo a/b  ', '\x17');
    expect([text(w), w.cursor]).toEqual(['echo ', 5]);
  });

  // The panel remembers each command the shell ran (../terminal/shell-input.ts says which).
  it('↑/↓ walk the history of the commands remembered', () => {
    const editor = typed('first', '\r');
    editor.remember('first');
    editor.reset();
    editor.press('second');
    expect(editor.press('\r')).toEqual({ kind: 'run', lines: ['second'] });
    editor.remember('second');
    editor.reset();
    expect(editor.press('\x1b[B')).toEqual({ kind: 'ignored' });
    editor.press('\x1b[A');
    expect([text(editor), editor.cursor]).toEqual(['second', 6]);
    editor.press('\x1bOA');
    expect(text(editor)).toBe('first');
    expect(editor.press('\x1b[A')).toEqual({ kind: 'ignored' });
    editor.press('\x1b[B');
    editor.press('\x1b[B');
    expect(text(editor)).toBe('');
  });

  it('Ctrl+C and Ctrl+L are the panel’s; Tab and unknown escape sequences do nothing', () => {
    const editor = typed('ls');
    expect(editor.press('\x03')).toEqual({ kind: 'interrupt' });
    expect(editor.press('\x0c')).toEqual({ kind: 'clear-screen' });
    expect(editor.press('\t')).toEqual({ kind: 'ignored' });
    expect(editor.press('\x1b[15~')).toEqual({ kind: 'ignored' });
    expect(text(editor)).toBe('ls');
  });
});

describe('LineEditor.load (a lesson’s line to complete)', () => {
  it('replaces the typed line; Ctrl+W at the cursor after the placeholder deletes just it', () => {
    const editor = typed('echo half-typed');
    const line = 'kubectl delete pod ECHO-POD --wait=false';
    editor.load(line, 'kubectl delete pod ECHO-POD'.length);
    expect([text(editor), editor.cursor]).toEqual([line, 27]);
    editor.press('\x17');
    editor.press('echo-5bbcdfbcfd-7jcxs');
    expect(editor.press('\r')).toEqual({
      kind: 'run',
      lines: ['kubectl delete pod echo-5bbcdfbcfd-7jcxs --wait=false'],
    });
  });

  it('gives the line as typed with Enter too (a here-document line keeps its indent)', () => {
    const editor = typed('  - port: 80 ');
    expect(editor.press('\r')).toEqual({ kind: 'run', lines: ['  - port: 80 '] });
  });

  it('keeps the cursor on the line and counts it in code points', () => {
    const editor = new LineEditor();
    editor.load('echo 𠀀 X', 99);
    expect(editor.cursor).toBe(8);
    editor.load('echo 𠀀 X', 6);
    editor.press('\x7f');
    expect(text(editor)).toBe('echo  X');
  });
});

describe('printable', () => {
  it('makes a pasted block one line and drops control characters the screen would not show', () => {
    expect(printable('echo 一\r\n\r\n二\t三\x07\x1b\x9b')).toBe('echo 一 二 三');
  });
});

/**
 * A bracketed paste, as xterm sends it once the prompt turned DECSET 2004 on: bash 5.2 at a pty
 * (`script`, Debian 12) shows `\e[200~echo one\necho two\n\e[201~` as two lines and an empty
 * third one with the cursor on it, runs nothing until Enter, then runs both lines.
 */
describe('LineEditor, a bracketed paste', () => {
  const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;

  it('keeps its line breaks (xterm sends "\\r") and runs nothing until Enter', () => {
    const editor = new LineEditor();
    expect(editor.press(paste('echo one\recho two\r'))).toEqual({
      kind: 'append',
      text: 'echo one\necho two\n',
    });
    expect(editor.cursor).toBe(18);
    expect(editor.press('\r')).toEqual({ kind: 'run', lines: ['echo one', 'echo two', ''] });
  });

  it('goes in at the cursor; tabs become blanks and other control characters go', () => {
    const editor = typed('echo 甲', '\x1b[D');
    expect(editor.press(paste('一\r\n二\t三\x07 '))).toEqual({ kind: 'edit' });
    expect(text(editor)).toBe('echo 一\n二 三 甲');
    expect(editor.press('\r')).toEqual({ kind: 'run', lines: ['echo 一', '二 三 甲'] });
  });

  it('Ctrl+U, Home and End take the whole of it, as readline’s line is the whole buffer', () => {
    const editor = typed(paste('a\rb'));
    editor.press('\x01');
    expect(editor.cursor).toBe(0);
    editor.press('\x05');
    expect(editor.cursor).toBe(3);
    editor.press('\x15');
    expect(editor.line).toEqual([]);
  });

  it('↑ recalls a remembered entry of several lines whole', () => {
    const editor = new LineEditor();
    editor.remember('cat <<EOF\na\nEOF\n');
    editor.press('\x1b[A');
    expect(text(editor)).toBe('cat <<EOF\na\nEOF\n');
    expect(editor.press('\r')).toEqual({ kind: 'run', lines: ['cat <<EOF', 'a', 'EOF', ''] });
  });

  it('a paste without its end bracket is all pasted text; an empty one does nothing', () => {
    expect(typed('\x1b[200~x\ry').line.join('')).toBe('x\ny');
    expect(new LineEditor().press(paste(''))).toEqual({ kind: 'ignored' });
  });

  // bash 5.2 showed `\e[7mecho 乙 \e[27m甲` for the paste of "echo 乙\t" before 甲, and drew the
  // line again, plainly, at the next key (readline's active region, enable-active-region).
  it('is highlighted until the next key, which then draws the line again', () => {
    const editor = typed('echo 甲', '\x1b[D');
    editor.press(paste('一\r二'));
    expect(editor.highlight).toEqual({ from: 5, to: 8 });
    expect(editor.press('x')).toEqual({ kind: 'edit' });
    expect(editor.highlight).toBeUndefined();
    expect(editor.press('y')).toEqual({ kind: 'edit' });
    const atEnd = typed(paste('a'));
    expect(atEnd.highlight).toEqual({ from: 0, to: 1 });
    expect(atEnd.press('\x1b[15~')).toEqual({ kind: 'edit' });
    expect(atEnd.press('b')).toEqual({ kind: 'append', text: 'b' });
    // A second paste: only it is highlighted.
    atEnd.press(paste('c'));
    expect([atEnd.highlight, atEnd.press(paste('d'))]).toEqual([
      { from: 2, to: 3 },
      { kind: 'edit' },
    ]);
    expect(atEnd.highlight).toEqual({ from: 3, to: 4 });
    atEnd.press('\r');
    expect(atEnd.highlight).toBeUndefined();
  });

  // While a command runs a paste is typed keys (bash turned the mode off), brackets or not.
  it('unbracketed() gives a paste’s text as xterm sent it, other data unchanged', () => {
    expect(unbracketed(paste('a\rb\r'))).toBe('a\rb\r');
    expect(unbracketed('a\rb\r')).toBe('a\rb\r');
  });
});
