/**
 * The lines Enter hands to the lab shell, one at a time, and what history keeps of them. What
 * bash 5.2 (Debian 12) did at a pty with bracketed paste on, for these pastes followed by Enter:
 * - `echo a\n)\necho b\n`: prints a, then "bash: syntax error near unexpected token `)'", then b;
 * - `nosuchcmd\necho $?\n\n  \necho c`: the error, 127, c (blank lines run nothing);
 * - `cat <<EOF | grep -c a\na\nb a\nEOF\necho after\n`: 2, after, no `> ` prompt; `history`
 *   then lists `cat <<EOF | grep -c a\na\nb a\nEOF\n` and `echo after` as two entries;
 * - `cat <<EOF\na\n` then `EOF` typed at `> `: prints a and an empty line (the paste's last,
 *   empty line is a line of the body).
 * The lab shell answers `continues` while a here-document is open (src/worker/lab-session.ts).
 */
import { describe, expect, it } from 'vitest';
import { ShellInput } from '../../src/ui/terminal/shell-input';

/** Reads every line as the panel does, the shell continuing while `open(text)` holds. */
function readAll(input: ShellInput, open: (text: string) => boolean) {
  const ran: string[] = [];
  const history: string[] = [];
  for (let text = input.next(); text !== undefined; text = input.next()) {
    ran.push(text);
    const entry = input.answered(open(text));
    if (entry !== undefined) history.push(entry);
  }
  return { ran, history };
}

/** A here-document is open until a line is exactly its delimiter (enough for these tests). */
const hereDocOpen = (text: string) => {
  const delimiter = /<<(\w+)/.exec(text)?.[1];
  return delimiter !== undefined && !text.split('\n').slice(1).includes(delimiter);
};

describe('ShellInput', () => {
  it('runs the lines in order, trimmed, blank ones skipped, and remembers each', () => {
    const input = new ShellInput();
    input.enter(['nosuchcmd', ' echo $? ', '', '  ', 'echo c']);
    expect(readAll(input, () => false)).toEqual({
      ran: ['nosuchcmd', 'echo $?', 'echo c'],
      history: ['nosuchcmd', 'echo $?', 'echo c'],
    });
    expect(input.continuing).toBe(false);
  });

  it('takes a here-document’s body from the lines after it, as typed, one history entry', () => {
    const input = new ShellInput();
    input.enter(['cat <<EOF | grep -c a', 'a', '  b a', '', 'EOF', 'echo after', '']);
    expect(readAll(input, hereDocOpen)).toEqual({
      ran: [
        'cat <<EOF | grep -c a',
        'cat <<EOF | grep -c a\na',
        'cat <<EOF | grep -c a\na\n  b a',
        'cat <<EOF | grep -c a\na\n  b a\n',
        'cat <<EOF | grep -c a\na\n  b a\n\nEOF',
        'echo after',
      ],
      history: ['cat <<EOF | grep -c a\na\n  b a\n\nEOF\n', 'echo after'],
    });
  });

  it('a here-document still open after the last line goes on with the lines typed next', () => {
    const input = new ShellInput();
    input.enter(['cat <<EOF', 'a', '']);
    expect(readAll(input, hereDocOpen).history).toEqual([]);
    expect(input.continuing).toBe(true);
    input.enter(['EOF']);
    expect(readAll(input, hereDocOpen)).toEqual({
      ran: ['cat <<EOF\na\n\nEOF'],
      history: ['cat <<EOF\na\n\nEOF\n'],
    });
    expect(input.continuing).toBe(false);
  });

  it('discard() drops an open here-document and the lines not read yet', () => {
    const input = new ShellInput();
    input.enter(['cat <<EOF', 'a', 'EOF', 'echo later']);
    expect(input.next()).toBe('cat <<EOF');
    input.answered(true);
    input.discard();
    expect(input.continuing).toBe(false);
    expect(input.next()).toBeUndefined();
    input.enter(['echo next']);
    expect(readAll(input, () => false).ran).toEqual(['echo next']);
  });
});
