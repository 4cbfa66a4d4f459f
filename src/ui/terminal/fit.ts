/**
 * The terminal's size from its box: columns and rows (what xterm's fit addon computes), so that
 * long lines wrap where the panel ends.
 */
import type { Terminal } from '@xterm/xterm';

export function fitToBox(xterm: Terminal, box: HTMLElement | null): void {
  const screen = xterm.element?.querySelector<HTMLElement>('.xterm-screen');
  if (!box || !screen || screen.clientWidth === 0) return;
  const cellW = screen.clientWidth / xterm.cols;
  const cellH = screen.clientHeight / xterm.rows;
  const cols = Math.max(20, Math.floor((box.clientWidth - 8) / cellW));
  const rows = Math.max(5, Math.floor((box.clientHeight - 8) / cellH));
  if (cols !== xterm.cols || rows !== xterm.rows) xterm.resize(cols, rows);
}
