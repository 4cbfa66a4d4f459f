/**
 * Type-ahead: keys pressed while a command runs, kept and echoed as Linux's tty line discipline
 * keeps and echoes them in canonical mode with stty sane's flags (drivers/tty/n_tty.c; stty(1):
 * icrnl, onlcr, echo, echoe, echok, echoke, echoctl, isig, iexten), then read by the line
 * editor key by key when the command ends. The echoes were checked against a pty on Linux 6.x
 * (`stty sane iutf8; sleep 1` in the child, the keys written meanwhile, the echo read back).
 */
import { describe, expect, it } from 'vitest';
import { keysOf, TYPE_AHEAD_LIMIT, TypeAhead } from '../../src/ui/terminal/type-ahead';

/** Everything kept, key by key, as the line editor is given it. */
function keys(typeAhead: TypeAhead): string[] {
  const all: string[] = [];
  for (let key = typeAhead.next(); key !== undefined; key = typeAhead.next()) all.push(key);
  return all;
}

describe('TypeAhead', () => {
  it('keeps typed text and Enter in order, and the editor gets each line then its Enter', () => {
    const typeAhead = new TypeAhead();
    for (const key of [...'echo a', '\r', ...'echo 你好', '\r', 'l', 's']) typeAhead.receive(key);
    expect(keys(typeAhead)).toEqual(['echo a', '\r', 'echo 你好', '\r', 'ls']);
    expect(typeAhead.pending).toBe(false);
  });

  it('echoes text as typed and Enter as CR LF (icrnl, onlcr)', () => {
    const typeAhead = new TypeAhead();
    expect(typeAhead.receive('echo 你')).toBe('echo 你');
    expect(typeAhead.receive('\r')).toBe('\r\n');
  });

  it('splits a pasted block at its line ends, so that each line runs (no bracketed paste)', () => {
    const typeAhead = new TypeAhead();
    // xterm's paste() turns "\n" into "\r"; Ctrl+J ("\n") ends a line as well.
    expect(typeAhead.receive('echo one\recho two\necho three')).toBe(
      'echo one\r\necho two\r\necho three',
    );
    expect(keys(typeAhead)).toEqual(['echo one', '\r', 'echo two', '\r', 'echo three']);
  });

  it('keeps cursor and control keys whole for the editor, and echoes them as ^X (echoctl)', () => {
    const typeAhead = new TypeAhead();
    expect(typeAhead.receive('\x1b[A')).toBe('^[[A');
    expect(typeAhead.receive('\x1bOD')).toBe('^[OD');
    expect(typeAhead.receive('\x1b[3~')).toBe('^[[3~');
    expect(typeAhead.receive('\x01')).toBe('^A');
    expect(typeAhead.receive('\x0c')).toBe('^L');
    expect(typeAhead.receive('x\r')).toBe('x\r\n');
    expect(keys(typeAhead)).toEqual(['\x1b[A', '\x1bOD', '\x1b[3~', '\x01', '\x0c', 'x', '\r']);
  });

  it('Backspace erases in the line being typed, "\\b \\b" a character (echoe)', () => {
    const typeAhead = new TypeAhead();
    typeAhead.receive('echo ab世');
    expect(typeAhead.receive('\x7f')).toBe('\b \b');
    expect(typeAhead.receive('\x7f')).toBe('\b \b');
    // A control character echoed as ^X takes two columns back, one at a time.
    typeAhead.receive('\x01');
    expect(typeAhead.receive('\x7f')).toBe('\b \b\b \b');
    expect(keys(typeAhead)).toEqual(['echo a']);
  });

  it('Backspace, Ctrl+U and Ctrl+W stop at the start of the line: an ended line stays', () => {
    const typeAhead = new TypeAhead();
    typeAhead.receive('echo a\r');
    expect(typeAhead.receive('\x7f')).toBe('');
    expect(typeAhead.receive('\x15')).toBe('');
    expect(typeAhead.receive('\x17')).toBe('');
    typeAhead.receive('ls');
    expect(typeAhead.receive('\x15')).toBe('\b \b\b \b');
    expect(keys(typeAhead)).toEqual(['echo a', '\r']);
  });

  it("Ctrl+W erases back over other characters, then a word's letters, digits and _", () => {
    const typeAhead = new TypeAhead();
    typeAhead.receive('curl 10.96.0.1:80/a_b1 ./');
    // " ./" then "a_b1"; then "/" and "80", up to the ":".
    expect(typeAhead.receive('\x17')).toBe('\b \b'.repeat(7));
    expect(typeAhead.receive('\x17')).toBe('\b \b'.repeat(3));
    expect(keys(typeAhead)).toEqual(['curl 10.96.0.1:']);
  });

  it('Ctrl+C echoes ^C and discards everything typed ahead; what follows it is kept', () => {
    const typeAhead = new TypeAhead();
    typeAhead.receive('echo a\recho b');
    expect(typeAhead.receive('\x03')).toBe('^C');
    expect(typeAhead.receive('ls\r')).toBe('ls\r\n');
    expect(keys(typeAhead)).toEqual(['ls', '\r']);
    expect(typeAhead.takeReport()).toEqual({ interrupted: true, droppedBytes: 0 });
    expect(typeAhead.takeReport()).toEqual({ interrupted: false, droppedBytes: 0 });
  });

  it('keeps at most 4095 bytes (UTF-8), beeps once a key past them and counts what it dropped', () => {
    expect(TYPE_AHEAD_LIMIT).toBe(4095);
    const typeAhead = new TypeAhead();
    expect(typeAhead.receive('a'.repeat(4093))).toBe('a'.repeat(4093));
    // 你 is three bytes: it does not fit in the two left, but the next ASCII bytes do.
    expect(typeAhead.receive('你你')).toBe('\x07');
    expect(typeAhead.receive('bc\rd')).toBe('bc\x07');
    expect(typeAhead.takeReport()).toEqual({ interrupted: false, droppedBytes: 8 });
    expect(keys(typeAhead).join('')).toBe(`${'a'.repeat(4093)}bc`);
    // Taken by the editor, the bytes are free again.
    expect(typeAhead.receive('你\r')).toBe('你\r\n');
  });

  it('after commit() (a command started) the kept rest can no longer be erased', () => {
    const typeAhead = new TypeAhead();
    typeAhead.receive('echo a\recho b');
    expect(typeAhead.next()).toBe('echo a');
    expect(typeAhead.next()).toBe('\r');
    typeAhead.commit();
    expect(typeAhead.receive('\x7f')).toBe('');
    typeAhead.receive('c\x7f');
    expect(keys(typeAhead)).toEqual(['echo b']);
  });
});

// Lines pasted at the prompt before xterm read "\x1b[?2004h" come unbracketed in one piece;
// readline reads them key by key, each "\r" an Enter (what bash does with bracketed paste off).
describe('keysOf', () => {
  it('splits one piece of data into the keys xterm would have sent', () => {
    expect(keysOf('echo 一\recho two\r\x1b[A\x1bOAx\x7f')).toEqual([
      'echo 一',
      '\r',
      'echo two',
      '\r',
      '\x1b[A',
      '\x1bOA',
      'x',
      '\x7f',
    ]);
    expect(keysOf('')).toEqual([]);
  });
});
