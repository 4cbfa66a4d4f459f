/**
 * The packet picker: a source (pod, node, external client), a destination (a Service port by
 * name, or IP:port), TCP, UDP or ICMP (ping), how many; Send runs the matching client program.
 * Text that is not a valid send is never rounded or dropped: Send then sends nothing, the
 * learner's text stays, and each field says what it accepts (send-form.ts reads the form).
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Destination, SendField, SendProblem } from '../../protocol/lab';
import { parseAddressText, parseCountText, SEND_COUNT, sendSources } from '../../worker/send-input';
import { useLab } from '../store';
import { readSendForm, SEND_FIELDS } from './send-form';

/** One field's problem, in the learner's language, for its control's aria-describedby. */
function FieldProblem({ id, problem }: { id: string; problem: SendProblem | undefined }) {
  const { t } = useTranslation();
  if (problem === undefined) return null;
  return (
    <span id={id} className="field-problem" role="alert">
      {t(`send.problem.${problem.code}`, problem.params)}
    </span>
  );
}

export function SendBar() {
  const { t } = useTranslation();
  const topology = useLab((s) => s.topology);
  const draft = useLab((s) => s.draft);
  const setDraft = useLab((s) => s.setDraft);
  const send = useLab((s) => s.send);
  const refused = useLab((s) => s.sendProblems);
  const busy = useLab((s) => s.engine !== 'ready');
  const [address, setAddress] = useState('10.96.0.10:53');
  const [count, setCount] = useState(String(draft.count));
  const [countBadInput, setCountBadInput] = useState(false);
  // Problems show once Send was pressed (then live as the text changes), not mid-typing and
  // not on leaving a field: a problem appearing on blur would push the Send button away from
  // under the pointer between mousedown and click, and the click would be lost.
  const [submitted, setSubmitted] = useState(false);
  const idBase = useId();
  if (topology === undefined) return null;

  const ids = (field: SendField) => ({
    control: `${idBase}-${field}`,
    problem: `${idBase}-${field}-problem`,
  });
  const form = readSendForm(
    { draft, addressText: address, countText: count, countBadInput },
    topology,
  );
  const problemOf = (field: SendField): SendProblem | undefined =>
    (submitted ? form.problems.find((p) => p.field === field) : undefined) ??
    refused.find((p) => p.field === field);
  const a11y = (field: SendField) => {
    const problem = problemOf(field);
    return {
      id: ids(field).control,
      'aria-invalid': problem !== undefined,
      ...(problem !== undefined ? { 'aria-describedby': ids(field).problem } : {}),
    };
  };
  const problemBeside = (field: SendField) => (
    <FieldProblem id={ids(field).problem} problem={problemOf(field)} />
  );

  const sources = sendSources(topology);
  const destinations = topology.services.flatMap((s) =>
    s.ports.map((p) => ({
      key: `${s.namespace}/${s.name}/${p.port}/${p.protocol}`,
      label: `${s.namespace}/${s.name} ${s.clusterIP}:${p.port}/${p.protocol}`,
      to: { kind: 'service', namespace: s.namespace, name: s.name, port: p.port } as Destination,
      protocol: p.protocol === 'UDP' ? ('udp' as const) : ('tcp' as const),
    })),
  );
  const to = draft.to;
  const current =
    to.kind === 'service'
      ? `${to.namespace}/${to.name}/${to.port}/${draft.protocol.toUpperCase()}`
      : 'address';

  // The draft follows the typed address while it is valid (the graph reads it); the text
  // itself lives here, so an invalid one stays exactly as typed.
  const addressDraft = (text: string, protocol = draft.protocol): Destination => {
    const parsed = parseAddressText(text, protocol);
    return parsed.ok ? { kind: 'address', ...parsed.value } : { kind: 'address', ip: '', port: 0 };
  };
  const pickDestination = (key: string) => {
    if (key === 'address') {
      setDraft({ to: addressDraft(address) });
      return;
    }
    const d = destinations.find((x) => x.key === key);
    if (d) setDraft({ to: d.to, protocol: d.protocol });
  };

  return (
    <form
      className="send-bar"
      aria-label={t('send.label')}
      // The form's own messages replace the browser's (which speak the browser's language).
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (form.request === undefined) {
          setSubmitted(true);
          const first = SEND_FIELDS.find((f) => form.problems.some((p) => p.field === f));
          if (first !== undefined) document.getElementById(ids(first).control)?.focus();
          return;
        }
        setSubmitted(false);
        void send(form.request);
      }}
    >
      <label>
        {t('send.from')}
        <select
          aria-label={t('send.from')}
          value={draft.from}
          onChange={(e) => setDraft({ from: e.target.value })}
          {...a11y('from')}
        >
          {sources.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {problemBeside('from')}
      <label>
        {t('send.to')}
        <select
          aria-label={t('send.to')}
          value={current}
          onChange={(e) => pickDestination(e.target.value)}
          {...a11y('to')}
        >
          {destinations.map((d) => (
            <option key={d.key} value={d.key}>
              {d.label}
            </option>
          ))}
          <option value="address">{t('send.address')}</option>
        </select>
      </label>
      {problemBeside('to')}
      {to.kind === 'address' && (
        <label>
          {t('send.ipPort')}
          <input
            aria-label={t('send.ipPort')}
            value={address}
            size={16}
            spellCheck={false}
            onChange={(e) => {
              setAddress(e.target.value);
              setDraft({ to: addressDraft(e.target.value) });
            }}
            {...a11y('address')}
          />
        </label>
      )}
      {to.kind === 'address' && problemBeside('address')}
      <label>
        {t('send.protocol')}
        <select
          aria-label={t('send.protocol')}
          value={draft.protocol}
          onChange={(e) => {
            const p = e.target.value;
            const protocol = p === 'udp' || p === 'icmp' ? p : 'tcp';
            // ICMP takes an IP without a port: the draft's address is read again for it.
            setDraft(
              to.kind === 'address'
                ? { protocol, to: addressDraft(address, protocol) }
                : { protocol },
            );
          }}
          {...a11y('protocol')}
        >
          <option value="tcp">TCP</option>
          <option value="udp">UDP</option>
          <option value="icmp">ICMP (ping)</option>
        </select>
      </label>
      {problemBeside('protocol')}
      <label>
        {t('send.count')}
        <input
          aria-label={t('send.count')}
          type="number"
          min={SEND_COUNT.min}
          max={SEND_COUNT.max}
          step={1}
          value={count}
          onChange={(e) => {
            setCount(e.target.value);
            setCountBadInput(e.target.validity.badInput);
            const parsed = parseCountText(e.target.value, e.target.validity.badInput);
            if (parsed.ok) setDraft({ count: parsed.value });
          }}
          {...a11y('count')}
        />
      </label>
      {problemBeside('count')}
      <button type="submit" className="primary" disabled={busy}>
        {t('send.send')}
      </button>
    </form>
  );
}
