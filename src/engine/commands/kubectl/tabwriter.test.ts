// Go text/tabwriter semantics (Writer.format): cells are tab-terminated, a column block is a run
// of lines having that column, width = widest cell + padding (≥ minwidth), a tab-less line ends
// the blocks above it. kubectl get: minwidth 6, padding 3 (cli-runtime printers/tabwriter.go).
import { describe, expect, it } from 'vitest';
import { DESCRIBE_TABWRITER, GET_TABWRITER, tabwrite } from './tabwriter';

describe('tabwrite', () => {
  it('aligns a kubectl table (kubernetes.io docs: `kubectl get services`)', () => {
    const text =
      'NAME\tTYPE\tCLUSTER-IP\tEXTERNAL-IP\tPORT(S)\tAGE\nkubernetes\tClusterIP\t10.96.0.1\t<none>\t443/TCP\t10d\n';
    expect(tabwrite(text, GET_TABWRITER)).toBe(
      'NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\n' +
        'kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   10d\n',
    );
  });

  it('applies minwidth 6 to narrow columns and leaves the last cell unpadded', () => {
    expect(tabwrite('A\tB\nx\tyyyyyyyy\n', GET_TABWRITER)).toBe('A     B\nx     yyyyyyyy\n');
  });

  it('starts a new column block where a line has fewer cells (kubectl describe: Port/NodePort)', () => {
    const text = 'Port:\thttp\t80/TCP\nTargetPort:\t8080/TCP\nNodePort:\thttp-long\t30080/TCP\n';
    expect(tabwrite(text, DESCRIBE_TABWRITER)).toBe(
      'Port:        http  80/TCP\nTargetPort:  8080/TCP\nNodePort:    http-long  30080/TCP\n',
    );
  });

  it('restarts alignment after a line without tabs', () => {
    expect(tabwrite('a\tb\n\nlonger\tc\n', GET_TABWRITER)).toBe('a     b\n\nlonger   c\n');
  });

  it('counts runes, not UTF-16 units or bytes', () => {
    expect(tabwrite('‘x’\tb\nab\tc\n', { minwidth: 0, padding: 1 })).toBe('‘x’ b\nab  c\n');
  });
});
