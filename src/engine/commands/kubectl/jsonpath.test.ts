// Expected values follow k8s.io/client-go/util/jsonpath (jsonpath.go: PrintResults joins one
// action's results with spaces and prints maps and lists with encoding/json, keys sorted;
// evalField returns nothing for a missing key when missing keys are allowed, kubectl's
// default; evalFilter skips an element whose left side is missing) and its parser's
// "unclosed action".
import { describe, expect, it } from 'vitest';
import { jsonpath } from './jsonpath';
import type { Json } from './yaml';

const LIST: Json = {
  apiVersion: 'v1',
  items: [
    {
      metadata: { name: 'a' },
      status: {
        podIP: '10.0.0.1',
        addresses: [
          { type: 'InternalIP', address: '1.1.1.1' },
          { type: 'Hostname', address: 'n1' },
        ],
      },
    },
    {
      metadata: { name: 'b' },
      status: { addresses: [{ type: 'InternalIP', address: '2.2.2.2' }] },
    },
  ],
  kind: 'List',
  metadata: { resourceVersion: '' },
};

const text = (t: string) => {
  const r = jsonpath(t, LIST);
  return 'text' in r ? r.text : r;
};

describe('jsonpath', () => {
  it('prints fields, lists with spaces, and text between actions as it is', () => {
    expect(text('{.kind}')).toBe('List');
    expect(text('{.items[*].metadata.name}')).toBe('a b');
    expect(text('x{.items[0].metadata.name}y{"\\n"}')).toBe('xay\n');
    expect(text("{.items[-1]['metadata'].name}")).toBe('b');
    // b has no podIP: nothing for it.
    expect(text('{.items[*].status.podIP}')).toBe('10.0.0.1');
  });

  it('ranges, filters and prints objects as compact JSON with sorted keys', () => {
    expect(text('{range .items[*]}{.metadata.name}{"\\t"}{.status.podIP}{"\\n"}{end}')).toBe(
      'a\t10.0.0.1\nb\t\n',
    );
    expect(text('{.items[*].status.addresses[?(@.type=="InternalIP")].address}')).toBe(
      '1.1.1.1 2.2.2.2',
    );
    expect(text('{.items[*].status.addresses[?(@.type!="InternalIP")].address}')).toBe('n1');
    expect(text('{.items[0].status.addresses[0]}')).toBe(
      '{"address":"1.1.1.1","type":"InternalIP"}',
    );
  });

  it('reports a template that does not parse, and what it does not model', () => {
    expect(jsonpath('{.kind', LIST)).toEqual({
      error: 'error: error parsing jsonpath {.kind, unclosed action\n',
    });
    expect(jsonpath('{..name}', LIST)).toEqual({ unsupported: true });
    expect(jsonpath('{.items[5]}', LIST)).toEqual({ unsupported: true });
  });
});
