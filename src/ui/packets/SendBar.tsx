/**
 * The packet picker: a source (pod, node, external client), a destination (a Service port by
 * name, or IP:port), TCP, UDP or ICMP (ping), how many; Send runs the matching client program.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Destination } from '../../protocol/lab';
import { useLab } from '../store';

export function SendBar() {
  const { t } = useTranslation();
  const topology = useLab((s) => s.topology);
  const draft = useLab((s) => s.draft);
  const setDraft = useLab((s) => s.setDraft);
  const send = useLab((s) => s.send);
  const busy = useLab((s) => s.engine !== 'ready');
  const [address, setAddress] = useState('10.96.0.10:53');
  if (topology === undefined) return null;

  const sources = [
    ...topology.nodes.flatMap((n) => n.pods.map((p) => p.target)),
    ...topology.nodes.map((n) => n.name),
    ...topology.externals.map((e) => e.name),
  ];
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

  const pickDestination = (key: string) => {
    if (key === 'address') {
      const [ip = '', port = '0'] = address.split(':');
      setDraft({ to: { kind: 'address', ip, port: Number(port) } });
      return;
    }
    const d = destinations.find((x) => x.key === key);
    if (d) setDraft({ to: d.to, protocol: d.protocol });
  };

  return (
    <form
      className="send-bar"
      aria-label={t('send.label')}
      onSubmit={(e) => {
        e.preventDefault();
        void send(draft);
      }}
    >
      <label>
        {t('send.from')}
        <select
          aria-label={t('send.from')}
          value={draft.from}
          onChange={(e) => setDraft({ from: e.target.value })}
        >
          {sources.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('send.to')}
        <select
          aria-label={t('send.to')}
          value={current}
          onChange={(e) => pickDestination(e.target.value)}
        >
          {destinations.map((d) => (
            <option key={d.key} value={d.key}>
              {d.label}
            </option>
          ))}
          <option value="address">{t('send.address')}</option>
        </select>
      </label>
      {to.kind === 'address' && (
        <label>
          {t('send.ipPort')}
          <input
            aria-label={t('send.ipPort')}
            value={address}
            size={16}
            onChange={(e) => {
              setAddress(e.target.value);
              const [ip = '', port = '0'] = e.target.value.split(':');
              setDraft({ to: { kind: 'address', ip, port: Number(port) } });
            }}
          />
        </label>
      )}
      <label>
        {t('send.protocol')}
        <select
          aria-label={t('send.protocol')}
          value={draft.protocol}
          onChange={(e) => {
            const p = e.target.value;
            setDraft({ protocol: p === 'udp' || p === 'icmp' ? p : 'tcp' });
          }}
        >
          <option value="tcp">TCP</option>
          <option value="udp">UDP</option>
          <option value="icmp">ICMP (ping)</option>
        </select>
      </label>
      <label>
        {t('send.count')}
        <input
          aria-label={t('send.count')}
          type="number"
          min={1}
          max={20}
          value={draft.count}
          onChange={(e) =>
            setDraft({ count: Math.max(1, Math.min(20, Number(e.target.value) || 1)) })
          }
        />
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {t('send.send')}
      </button>
    </form>
  );
}
