/**
 * Every lesson, in course order. Pure data: the UI, the worker and the tests import this.
 */
import type { Lesson } from './types';
import { lesson as proxyMode } from './01-proxy-mode/lesson';
import { lesson as findYourService } from './02-find-your-service/lesson';
import { lesson as randomNotRoundRobin } from './03-random-not-round-robin/lesson';
import { lesson as dnsQueryPath } from './04-dns-query-path/lesson';
import { lesson as nodePortFromOutside } from './05-nodeport-from-outside/lesson';
import { lesson as conntrack } from './06-conntrack/lesson';
import { lesson as rollingUpdate } from './07-rolling-update/lesson';
import { lesson as iptablesVsIpvs } from './08-iptables-vs-ipvs/lesson';
import { lesson as sameNodeBridge } from './09-same-node-bridge/lesson';
import { lesson as hairpin } from './10-hairpin/lesson';
import { lesson as serviceTypes } from './11-service-types/lesson';
import { lesson as userspaceHistory } from './12-userspace-history/lesson';

export const LESSONS: readonly Lesson[] = [
  proxyMode,
  findYourService,
  randomNotRoundRobin,
  dnsQueryPath,
  nodePortFromOutside,
  conntrack,
  rollingUpdate,
  iptablesVsIpvs,
  sameNodeBridge,
  hairpin,
  serviceTypes,
  userspaceHistory,
];

export function findLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
