/**
 * What the shell reads after Enter: the edit line's lines, one at a time, as bash reads the
 * lines of a readline buffer that holds a bracketed paste (bash 5.2 at a pty, checked with
 * `\e[200~echo a\n)\necho b\nEOF\e[201~` and a here-document): each line runs as if typed and
 * Enter pressed, in order, its output after it; a blank line does nothing, unless it is a line
 * of a here-document; an error (a syntax error too) does not stop the lines after it; a
 * here-document's body is taken from the lines that follow, without `> ` prompts, and a
 * here-document still open after the last line is continued at `> `.
 *
 * It also says what history keeps: bash with cmdhist keeps one entry a command, so a
 * here-document's lines (typed at `> ` or pasted) are one entry, and the other lines of a paste
 * one entry each (↑ after pasting `echo one\necho two` recalls `echo two`).
 */
export class ShellInput {
  /** Lines Enter handed over that the shell has not read yet. */
  private queued: string[] = [];
  /** The lines read so far of the command being read (more than one: a here-document). */
  private command: string[] = [];
  /** Whether the shell said the command goes on (a here-document not yet at its delimiter). */
  private open = false;

  /** A here-document is open: the prompt is bash's PS2, `> `. */
  get continuing(): boolean {
    return this.open;
  }

  /** Enter: the line's lines, in order, after any not read yet. */
  enter(lines: readonly string[]): void {
    this.queued.push(...lines);
  }

  /**
   * The text to run for the next line: the command line, or a here-document's lines so far
   * (each as typed: YAML keeps its indent). Undefined once every line is read.
   */
  next(): string | undefined {
    for (let line = this.queued.shift(); line !== undefined; line = this.queued.shift()) {
      if (this.open) {
        this.command.push(line);
        return this.command.join('\n');
      }
      const command = line.trim();
      if (command !== '') {
        this.command = [command];
        return command;
      }
    }
    return undefined;
  }

  /**
   * The shell's answer to the text next() gave: whether it goes on. Returns the history entry
   * once the command is complete: bash keeps a here-document with the newline after its
   * delimiter (`history` lists `cat <<EOF\na\nEOF\n` for one typed at `> `).
   */
  answered(continues: boolean): string | undefined {
    this.open = continues;
    if (continues) return undefined;
    const entry = this.command.length > 1 ? `${this.command.join('\n')}\n` : this.command[0];
    this.command = [];
    return entry;
  }

  /** Ctrl+C, or another host's shell: the command being read and the lines after it are gone. */
  discard(): void {
    this.queued = [];
    this.command = [];
    this.open = false;
  }
}
