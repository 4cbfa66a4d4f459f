// sed scripts the lab does not run say so; random scripts never throw. What it runs is
// compared with GNU sed in tests/kernel/text-tools.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runLine } from '../../../tests/helpers/run-line';
import { LAB_NOTES } from '../model/lab-notes';

const run = (line: string) => runLine('node-1', line);

describe('sed', () => {
  it.each([
    "sed 'a text'",
    "sed 'N;P;D'",
    "sed 'n;d'",
    "sed -n 'h;G;p'",
    "sed ':a;s/x//;ta'",
    "sed 's/a/b/w out'",
    "sed 's/a/\\U&/'",
    "sed '1~2d'",
    "sed '/a/,+2d'",
    "sed -n '/[[.hyphen.]]/p'",
  ])('says %s is not modelled', (line) => {
    expect(run(`iptables-save | ${line}`)).toEqual({
      stdout: '',
      stderr: `${LAB_NOTES['sed.script']}\n`,
      exitCode: 1,
    });
  });

  it('says which options it does not model', () => {
    expect(run("sed -i 's/a/b/' /etc/resolv.conf").stderr).toBe(
      'lab: sed -i is not modelled in kube-proxy-lab\n',
    );
  });

  it("shows one Service's chain from iptables-save", () => {
    const r = run(`iptables-save -t nat | sed -n '/^-A KUBE-SVC-LOLE4ISW44XBNF3G /p' | sed 's/ -m comment --comment "[^"]*"//'`); // prettier-ignore
    expect(r.stdout.split('\n')[0]).toMatch(/^-A KUBE-SVC-LOLE4ISW44XBNF3G ! -s 10\.244\.0\.0\/16 -d 10\.96\.1\.1\/32 -p tcp -m tcp --dport 80 -j KUBE-MARK-MASQ$/); // prettier-ignore
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(4);
  });

  it('never throws on scripts made of sed tokens, whatever their order (seeded)', () => {
    const token = fc.constantFrom(
      's', 'y', 'p', 'd', 'q', 'Q', '=', '{', '}', '!', ';', ',', '$', '1', '2', '0', '/',
      '/a/', '/[[:digit:]]\\+/', '\\(', '\\)', '\\1', '&', 'g', 'I', ' ', '#', 'x', '*', '^', '[',
    ); // prettier-ignore
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), fc.boolean(), (tokens, extended) => {
        const script = tokens.join('').replace(/'/g, '');
        const r = run(`printf 'a1\\nb\\n2\\n' | sed ${extended ? '-E ' : ''}'${script}'`);
        expect([0, 1]).toContain(r.exitCode);
      }),
      { numRuns: 1500, seed: 20261205 },
    );
  });
});
