/**
 * The scenario schema's hover texts in the learner's language. The schema (scenario.schema.json)
 * is written in English; in zh-CN the editor gets a copy with each title and description this
 * table knows replaced. Field names, enums and the validation itself are the same in both.
 * (monaco-yaml's own messages, such as "Incorrect type", come from yaml-language-server in
 * English.)
 */
import type { Language } from '../i18n';

export const SCHEMA_DESCRIPTIONS_ZH: Readonly<Record<string, string>> = {
  'kube-proxy-lab scenario document': 'kube-proxy-lab 场景文档',
  "One document of a kube-proxy-lab scenario: a Kubernetes object or the lab's own Lab kind.":
    'kube-proxy-lab 场景中的一个文档：一个 Kubernetes 对象，或实验室自己的 Lab。',
  "kube-proxy-lab's own settings: what no Kubernetes object holds.":
    'kube-proxy-lab 自己的设置：这些内容不属于任何 Kubernetes 对象。',
  'Seeds every random choice (e.g. which backend a packet gets).':
    '所有随机选择的种子（例如数据包分给哪个后端）。',
  'kube-apiserver --service-cluster-ip-range': '即 kube-apiserver 的 --service-cluster-ip-range',
  'How long ago the cluster was created (e.g. 10d, 36h).': '集群创建于多久以前（例如 10d、36h）。',
  'Per node: sysctls.': '每个节点的 sysctl。',
  'br_netfilter: pass bridged IPv4 frames to iptables.':
    'br_netfilter：把网桥转发的 IPv4 帧交给 iptables。',
  "kube-proxy's configuration (the same on every node).": 'kube-proxy 的配置（每个节点都一样）。',
  'Proxy mode.': '代理模式。',
  'SNAT every packet sent to a ClusterIP.': '对发往 ClusterIP 的每个数据包都做 SNAT。',
  'How a pod can reach itself through a Service.': 'Pod 如何通过 Service 访问到自己（hairpin）。',
  'DNS-1123 name': 'DNS-1123 名称',
  'Protocol; default TCP': '协议；默认 TCP',
};

/** The schema keywords whose strings are read by people (the hover's heading and text). */
const TEXT_KEYS = new Set(['title', 'description']);

/** A copy of `schema` with its titles and descriptions in `lang` (the schema itself, for English). */
export function localizedSchema<T>(schema: T, lang: Language): T {
  if (lang !== 'zh-CN') return schema;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        TEXT_KEYS.has(k) && typeof v === 'string' ? (SCHEMA_DESCRIPTIONS_ZH[v] ?? v) : walk(v),
      ]),
    );
  };
  return walk(schema) as T;
}
