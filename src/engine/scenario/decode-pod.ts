/**
 * v1 Pod, and the pod spec a Deployment's template shares with it. Validation follows
 * ValidatePodSpec / validateContainers / validateContainerPorts (pkg/apis/core/validation).
 *
 * The API server drops `status` on create; the lab reads status.podIP (a fixed address instead
 * of the CNI's choice) and status.conditions (a pod that is not Ready), because those are the
 * states a learner wants to stage. metadata.deletionTimestamp marks a terminating pod.
 */
import type { Container, ContainerPort, Protocol } from '../model/cluster';
import { decodeMeta } from './decode-meta';
import type { PodDraft, PodSpecDraft } from './drafts';
import { listMaps } from './reader';
import type { MapReader } from './reader';
import type { ObjectReport } from './report';
import { dns1123Label, dns1123Subdomain, ipAddress, portName, portNum } from './validate-common';

export const PROTOCOLS: readonly Protocol[] = ['SCTP', 'TCP', 'UDP'];

const IGNORED_POD_SPEC = [
  'volumes',
  'initContainers',
  'ephemeralContainers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'automountServiceAccountToken',
  'hostPID',
  'hostIPC',
  'shareProcessNamespace',
  'securityContext',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'hostAliases',
  'priorityClassName',
  'priority',
  'dnsConfig',
  'readinessGates',
  'runtimeClassName',
  'enableServiceLinks',
  'preemptionPolicy',
  'overhead',
  'topologySpreadConstraints',
  'setHostnameAsFQDN',
  'os',
  'hostUsers',
  'schedulingGates',
  'resourceClaims',
  'resources',
];
const IGNORED_CONTAINER = [
  'command',
  'args',
  'workingDir',
  'envFrom',
  'env',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
];
const IGNORED_POD_STATUS = [
  'phase',
  'message',
  'reason',
  'hostIP',
  'hostIPs',
  'startTime',
  'containerStatuses',
  'initContainerStatuses',
  'qosClass',
  'nominatedNodeName',
  'ephemeralContainerStatuses',
  'resize',
  'resourceClaimStatuses',
  'observedGeneration',
];

export function decodePodSpec(
  rep: ObjectReport,
  spec: MapReader | undefined,
  path: string,
  anchor: number,
): PodSpecDraft {
  const containers: Container[] = [];
  const containerNames = new Set<string>();
  const items = listMaps(rep, spec?.list('containers'));
  if (items.length === 0) {
    rep.field(spec?.keyStart('containers') ?? anchor, `${path}.containers`, { type: 'required' });
  }
  for (const c of items) {
    const name = c.str('name');
    if (!name?.value) rep.field(c.anchor, `${c.path}.name`, { type: 'required' });
    else {
      for (const msg of dns1123Label(name.value)) {
        rep.field(name.start, `${c.path}.name`, {
          type: 'invalid',
          value: name.value,
          detail: msg,
        });
      }
      if (containerNames.has(name.value)) {
        rep.field(name.start, `${c.path}.name`, { type: 'duplicate', value: name.value });
      }
      containerNames.add(name.value);
    }
    const image = c.str('image');
    if (!image?.value) rep.field(c.anchor, `${c.path}.image`, { type: 'required' });
    const ports: ContainerPort[] = [];
    // validateContainerPorts checks name clashes within one container only.
    const portNames = new Set<string>();
    for (const p of listMaps(rep, c.list('ports'))) {
      const port = decodeContainerPort(rep, p, portNames);
      if (port) ports.push(port);
    }
    c.ignore(...IGNORED_CONTAINER);
    c.finish();
    containers.push({ name: name?.value ?? '', image: image?.value ?? '', ports });
  }
  const nodeName = spec?.str('nodeName');
  if (nodeName?.value) {
    for (const msg of dns1123Subdomain(nodeName.value)) {
      rep.field(nodeName.start, `${path}.nodeName`, {
        type: 'invalid',
        value: nodeName.value,
        detail: msg,
      });
    }
  }
  const hostNetwork = spec?.bool('hostNetwork');
  spec?.ignore(...IGNORED_POD_SPEC);
  spec?.finish();
  return {
    ...(nodeName?.value ? { nodeName: nodeName.value } : {}),
    nodeNameLoc: { doc: rep.doc, offset: nodeName?.start ?? spec?.anchor ?? anchor },
    hostNetwork: hostNetwork?.value ?? false,
    containers,
  };
}

function decodeContainerPort(
  rep: ObjectReport,
  p: MapReader,
  names: Set<string>,
): ContainerPort | undefined {
  const containerPort = p.int('containerPort');
  const name = p.str('name');
  const protocol = p.str('protocol');
  p.ignore('hostPort', 'hostIP');
  p.finish();
  const before = rep.errors;
  if (!containerPort || containerPort.value === 0) {
    rep.field(p.anchor, `${p.path}.containerPort`, { type: 'required' });
  } else {
    for (const msg of portNum(containerPort.value)) {
      rep.field(containerPort.start, `${p.path}.containerPort`, {
        type: 'invalid',
        value: containerPort.value,
        detail: msg,
      });
    }
  }
  if (name?.value) {
    const errs = portName(name.value);
    for (const msg of errs) {
      rep.field(name.start, `${p.path}.name`, { type: 'invalid', value: name.value, detail: msg });
    }
    if (errs.length === 0 && names.has(name.value)) {
      rep.field(name.start, `${p.path}.name`, { type: 'duplicate', value: name.value });
    }
    names.add(name.value);
  }
  const proto = protocol?.value ?? 'TCP';
  if (!PROTOCOLS.includes(proto as Protocol)) {
    rep.field(protocol?.start ?? p.anchor, `${p.path}.protocol`, {
      type: 'notSupported',
      value: proto,
      supported: PROTOCOLS,
    });
  }
  if (rep.errors > before || !containerPort) return undefined;
  return {
    ...(name?.value ? { name: name.value } : {}),
    containerPort: containerPort.value,
    protocol: proto as Protocol,
  };
}

export function decodePod(root: MapReader): PodDraft | undefined {
  const rep = root.rep;
  const meta = decodeMeta(root, { namespaced: true, nameRule: dns1123Subdomain });
  const specEntry = root.entry('spec');
  const spec = root.map('spec');
  const podSpec = decodePodSpec(rep, spec, 'spec', specEntry?.keyStart ?? root.anchor);

  const status = root.map('status');
  let podIP = status?.str('podIP');
  const podIPs = listMaps(rep, status?.list('podIPs'));
  for (const item of podIPs) {
    const ip = item.str('ip');
    item.finish();
    if (!podIP && ip) podIP = ip;
  }
  if (podIP) {
    for (const msg of ipAddress(podIP.value)) {
      rep.field(podIP.start, 'status.podIP', { type: 'invalid', value: podIP.value, detail: msg });
    }
  }
  let ready = true;
  for (const c of listMaps(rep, status?.list('conditions'))) {
    const type = c.str('type');
    const st = c.str('status');
    c.ignore('lastProbeTime', 'lastTransitionTime', 'reason', 'message', 'observedGeneration');
    c.finish();
    if (st && !['True', 'False', 'Unknown'].includes(st.value)) {
      rep.field(st.start, `${c.path}.status`, {
        type: 'notSupported',
        value: st.value,
        supported: ['False', 'True', 'Unknown'],
      });
    }
    // podutil.IsPodReady: Ready only when the Ready condition is "True". Without a Ready
    // condition the lab assumes the kubelet has already reported the pod ready.
    if (type?.value === 'Ready' && st) ready = st.value === 'True';
  }
  status?.ignore(...IGNORED_POD_STATUS);
  status?.finish();
  root.finish();
  if (rep.errors > 0) return undefined;
  return {
    meta,
    spec: podSpec,
    ...(podIP ? { podIP: podIP.value } : {}),
    podIPLoc: { doc: rep.doc, offset: podIP?.start ?? root.anchor },
    ready,
    terminating: meta.deletionTimestamp !== undefined,
  };
}
