/**
 * The Send form's text turned into a request, or the problems that stop it: the typed IP:port
 * and count are read with the worker's own rules (worker/send-input.ts), then the whole
 * request is checked as the worker will check it, so the form never sends what the worker
 * would refuse and never refuses what it would take.
 */
import type { SendField, SendProblem, SendRequest, Topology } from '../../protocol/lab';
import { parseAddressText, parseCountText, sendRequestProblems } from '../../worker/send-input';

/** What the learner has in the form now: the store's draft and the two typed texts. */
export interface SendFormInput {
  readonly draft: SendRequest;
  readonly addressText: string;
  readonly countText: string;
  /** The number field held text the browser could not read as a number. */
  readonly countBadInput: boolean;
}

export type SendFormResult =
  | { readonly request: SendRequest; readonly problems: readonly [] }
  | { readonly request: undefined; readonly problems: readonly SendProblem[] };

/** The form's fields top to bottom: problems are listed (and focused) in this order. */
export const SEND_FIELDS: readonly SendField[] = ['from', 'to', 'address', 'protocol', 'count'];

export function readSendForm(input: SendFormInput, topology: Topology): SendFormResult {
  const { draft } = input;
  const problems: SendProblem[] = [];
  let to = draft.to;
  if (to.kind === 'address') {
    const address = parseAddressText(input.addressText, draft.protocol);
    if (address.ok) to = { kind: 'address', ...address.value };
    else problems.push(address.problem);
  }
  const count = parseCountText(input.countText, input.countBadInput);
  if (!count.ok) problems.push(count.problem);
  const request: SendRequest = { ...draft, to, count: count.ok ? count.value : draft.count };
  // A field whose text did not parse has its problem already; the rest are checked whole.
  const parsedBad = new Set(problems.map((p) => p.field));
  problems.push(...sendRequestProblems(request, topology).filter((p) => !parsedBad.has(p.field)));
  if (problems.length === 0) return { request, problems: [] };
  problems.sort((a, b) => SEND_FIELDS.indexOf(a.field) - SEND_FIELDS.indexOf(b.field));
  return { request: undefined, problems };
}
