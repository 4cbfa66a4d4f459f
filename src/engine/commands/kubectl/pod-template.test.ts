/**
 * describe.DescribePodTemplate as `kubectl rollout history --revision=N` prints it (kubectl
 * v1.32 pkg/describe/describe.go: printLabelsMultiline, printAnnotationsMultiline,
 * describeContainers with no status, describeVolumes, Node-Selectors and Tolerations), written
 * by a PrefixWriter into a plain buffer: tabs stay tabs. Host ports of a hostNetwork template
 * are its container ports (SetDefaults_PodSpec, pkg/apis/core/v1/defaults.go).
 */
import { describe, expect, it } from 'vitest';
import { describePodTemplate } from './pod-template';

describe('describePodTemplate', () => {
  it('one container, one port, no annotations', () => {
    expect(
      describePodTemplate({
        labels: { app: 'web', 'pod-template-hash': '6bc869c565' },
        annotations: {},
        hostNetwork: false,
        containers: [
          { name: 'web', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] },
        ],
      }),
    ).toBe(
      'Pod Template:\n' +
        '  Labels:\tapp=web\n\tpod-template-hash=6bc869c565\n' +
        '  Containers:\n   web:\n    Image:\tnginx\n    Port:\t80/TCP\n    Host Port:\t0/TCP\n' +
        '    Environment:\t<none>\n    Mounts:\t<none>\n' +
        '  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n',
    );
  });

  it('several ports, hostNetwork, annotations (a long one below its key), no ports', () => {
    const long = 'x'.repeat(150);
    const text = describePodTemplate({
      labels: {},
      annotations: { b: long, a: 'one' },
      hostNetwork: true,
      containers: [
        {
          name: 'dns',
          image: 'coredns',
          ports: [
            { containerPort: 53, protocol: 'UDP' },
            { containerPort: 53, protocol: 'TCP' },
          ],
        },
        { name: 'side', image: 'busybox', ports: [] },
      ],
    });
    expect(text).toContain('  Labels:\t<none>\n');
    expect(text).toContain(`  Annotations:\ta: one\n\tb:\n\t  ${'x'.repeat(138)}...\n`);
    expect(text).toContain('    Ports:\t53/UDP, 53/TCP\n    Host Ports:\t53/UDP, 53/TCP\n');
    expect(text).toContain('   side:\n    Image:\tbusybox\n    Port:\t<none>\n    Host Port:\t<none>\n'); // prettier-ignore
  });

  it('no containers', () => {
    const text = describePodTemplate({ labels: {}, annotations: {}, hostNetwork: false, containers: [] }); // prettier-ignore
    expect(text).toContain('  Containers: <none>\n  Volumes:\t<none>\n');
  });
});
