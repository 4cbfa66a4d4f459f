/** English UI strings. Kernel and tool output is shown as printed, never translated. */
import { ENGLISH_STEP_WORDS } from '../../explain/format';

export const EN = {
  top: {
    preset: 'Scenario',
    lessonScenario: 'Lesson {{n}}: {{title}}',
    ownScenario: 'Your scenario',
    fileScenario: 'File: {{name}}',
    large: 'Large text',
    focus: 'Graph only',
    language: 'Language',
    restart: 'Start over',
    projector: 'Projector window',
    projectorWhy:
      'Opens a second window that shows the graph, the lane and conntrack and follows this one step by step: put it on the projector and drive it from here.',
    following: 'Projector window: follows the lab window that opened it',
    restartWhy:
      'Rebuild the cluster from the last applied scenario: empty conntrack tables, zero counters, the clock and the seeded random choices from the beginning. The editor keeps its text.',
  },
  status: {
    starting: 'Starting the engine…',
    ready: 'Engine ready',
    busy: 'Working…',
  },
  notice: {
    restarted:
      'The engine stopped ({{detail}}) and was restarted with your last applied scenario. Your edits are kept.',
    error: 'The engine could not do that: {{detail}}',
    link: 'Opened the scenario the link carries.',
    linkKept: 'Your previous scenario is kept:',
    linkRestore: 'Put it back in the editor',
    linkError: "This link's scenario could not be read ({{detail}}). Nothing was changed.",
    dismiss: 'Dismiss',
  },
  graph: {
    label: 'Cluster graph',
    controls: 'Zoom controls',
    saveImage: 'Save the graph as an image (PNG)',
    vips: '{{n}} VIPs',
    lan: 'LAN',
    services: 'Services (virtual IPs: they exist only as rules)',
    pickSource: 'Send from {{name}}',
    pickService: 'Send to Service {{name}} ({{ip}})',
    bridgeNfOff: 'net.bridge.bridge-nf-call-iptables = 0: bridged frames skip iptables',
    small: 'Graph drawn at {{pct}}%. For a projector: Graph only, and fold Lessons.',
    smallFocused: 'Graph drawn at {{pct}}%. For a projector: fold Lessons.',
  },
  send: {
    label: 'Send packets',
    from: 'From',
    to: 'To',
    address: 'IP:port…',
    ipPort: 'IP:port',
    protocol: 'Protocol',
    count: 'Count',
    send: 'Send',
    // Why Send did not send, next to the field (codes: SendProblem in protocol/lab.ts; the
    // ranges come from worker/send-input.ts, so the text says what the worker accepts).
    problem: {
      sourceUnknown:
        'From: {{name}} is not in the cluster now. Pick a pod, node or external client from the list.',
      serviceUnknown:
        'To: Service {{name}} is not in the cluster now. Pick a destination from the list.',
      serviceNoClusterIP:
        'To: Service {{name}} has no ClusterIP (a headless Service). Pick another destination, or IP:port… with a pod’s IP.',
      addressEmpty: 'IP:port is empty. Type an IPv4 address and a port, like 10.96.0.10:53.',
      addressNotIPv4:
        'IP:port: “{{text}}” is not an IPv4 address. Type four numbers from 0 to 255 with dots between them (no leading zeros), like 10.96.0.10.',
      portMissing:
        'IP:port has no port. Add a colon and a whole number from {{min}} to {{max}}, like 10.96.0.10:53 (only ICMP needs no port).',
      portRange: 'Port must be a whole number from {{min}} to {{max}}.',
      protocolUnknown: 'Protocol must be TCP, UDP or ICMP.',
      countEmpty: 'Count is empty. Type a whole number from {{min}} to {{max}}.',
      countRange: 'Count must be a whole number from {{min}} to {{max}}.',
    },
  },
  play: {
    label: 'Playback',
    back: 'Step back',
    forward: 'Step forward',
    backKeys:
      'Step back (←). Shift+←: the previous stop (hook, rewrite, wire, verdict). Home: the start.',
    forwardKeys:
      'Step forward (→). Shift+→: the next stop (hook, rewrite, wire, verdict). End: the last step.',
    play: 'Play',
    pause: 'Pause',
    speed: 'Speed',
    // i18next picks _one/_other by Intl.PluralRules from `count`: "1 step/s", "0.5 steps/s".
    perSecond_one: '{{count}} step/s',
    perSecond_other: '{{count}} steps/s',
    position: 'Trace position',
    noTrace: 'No packet yet: pick a source and a destination, then Send.',
    step: 'Step {{n}} of {{total}}',
  },
  lane: {
    label: 'Inside the host',
    hint: 'Send a packet: its path through the hooks and chains of each host shows here.',
    ready: 'Press ▶ or → to walk the packet step by step.',
    packet: 'packet {{id}}',
    skipped: 'skipped: known connection, NAT from conntrack',
  },
  step: {
    /** A step's number as the player counts it (1-based): the same in every view. */
    number: 'Step {{n}}',
    kind: {
      send: 'send',
      wire: 'wire',
      hook: 'hook',
      rule: 'rule',
      policy: 'policy',
      nat: 'NAT',
      conntrack: 'conntrack',
      route: 'route',
      bridge: 'bridge',
      verdict: 'verdict',
      'nft-rule': 'nft rule',
      ipvs: 'IPVS',
    },
    /**
     * explain/format.ts StepWords: the lab's own words in step titles and lane stations — the
     * CLI's, with the verdicts the lane shows as words.
     */
    words: { ...ENGLISH_STEP_WORDS, verdict: { DELIVERED: 'DELIVERED', LOST: 'LOST' } },
  },
  ct: {
    label: 'Connection tracking',
    title: 'conntrack',
    count: '{{n}} flow entries',
    empty: '(no entries)',
    unconfirmed: 'unconfirmed, not listed yet',
    unnat: 'this entry un-NATs the reply',
    wait: 'Wait 10 s',
    waitHint: 'Move the lab clock 10 seconds: timers count down, entries expire',
  },
  panels: {
    label: 'Panels',
    node: 'Node',
    scenario: 'Scenario',
    events: 'Events',
    rules: 'Rules',
    inspector: 'Inspector',
    terminal: 'Terminal',
    settings: 'Settings',
  },
  editor: {
    aria: 'Scenario YAML',
    apply: 'Apply',
    applyAction: 'Apply scenario',
    loading: 'Loading…',
    running: 'The cluster runs this text.',
    unapplied: 'Edited, not applied yet.',
    problems: 'Problems',
    rejected: 'Not applied: {{n}} error(s). The last good cluster keeps running.',
    noRuleChange: 'Applied. No rule changed.',
    ruleDiff: '{{node}}: {{tables}}',
    tableDiff: '{{table}} +{{added}} −{{removed}} lines',
    tableDiffSeparator: '; ',
    refused: {
      noObjects:
        'Not applied: the scenario is empty (no objects). The last good cluster keeps running.',
      noNodes:
        'Not applied: the scenario has no Node, so kube-proxy has nowhere to run. The last good cluster keeps running.',
    },
    loadBuiltin: 'Load the built-in scenario',
    open: 'Open file…',
    link: 'Copy link',
    linkCopied: 'Link copied: the scenario is in the link itself (after #), nothing was uploaded.',
    linkShown:
      'Copy this link: the scenario is in the link itself (after #), nothing was uploaded.',
    linkTooLong:
      'This scenario makes a link of {{n}} characters (at most {{max}}): save it as a file instead.',
    save: 'Save file',
    fileTooLarge: '{{name}} is {{mib}} MiB; the lab reads scenarios of at most 64 MiB.',
  },
  events: {
    none: 'No trace yet.',
    all: 'Every step (also rules that did not match)',
    count: '{{n}} steps',
    copy: 'Copy as text',
    copied: 'Copied',
    save: 'Save as text',
    exportTitle:
      'The commands, their output and the steps listed below, with why each happened: for a lab report',
  },
  rules: {
    table: 'Table',
    view: 'View',
    tree: 'Chain tree',
    text: 'Text',
  },
  inspector: {
    none: 'Select a step in the event list.',
    field: 'Field',
    before: 'Before',
    after: 'After',
    value: 'Value',
    history: 'Packet {{id}}: its header at every step',
    origin: 'kube-proxy wrote this rule for Service {{service}}',
    originPort: 'kube-proxy wrote this rule for port {{port}} of Service {{service}}',
    show: 'Show in scenario',
    notFound: 'No document of the scenario is the Service {{service}}.',
  },
  terminal: {
    host: 'Host',
    input: 'Terminal input',
    hint: 'The same commands as the kube-proxy-lab CLI. ↑/↓ history; ←/→, Home/End, Ctrl+U/K/W edit the line.',
    typeAheadInterrupted:
      'lab: Ctrl-C came while the command ran; the lab runs a command in virtual time and cannot interrupt it, so it ran to the end. Ctrl-C discarded what was typed ahead before it, as a terminal does.',
    typeAheadDropped:
      'lab: {{bytes}} bytes typed while the command ran were dropped: the lab keeps at most {{limit}} bytes typed ahead, as much as a terminal line holds.',
    podTools:
      "A pod runs the lab's programs whatever its image, as a node does: Debian 12's bash, curl 7.88, iputils ping, BIND 9.18 dig, OpenBSD nc, GNU Wget 1.21.3. An Alpine image such as agnhost has busybox's ping and wget and curl 8, which word some lines differently.",
  },
  settings: {
    mode: 'Proxy mode',
    modeWhy:
      'Which kube-proxy backend programs the Service rules: iptables chains, IPVS virtual servers, or nftables.',
    modeUnsupported:
      'This build of the lab does not model the {{mode}} proxier yet: kube-proxy still writes iptables rules on every node.',
    bridgeNfWhy:
      'Whether frames bridged on cni0 (pod to pod on one node) pass through iptables and conntrack; off, a same-node reply skips un-NAT.',
    hairpin: 'kubelet hairpin mode',
    hairpinWhy:
      'Whether cni0 may send a frame back out of the port it came in on, so a pod can reach itself through its Service.',
    masqueradeAll: 'Masquerade every packet to a Service',
    masqueradeAllWhy:
      'kube-proxy SNATs all Service traffic, not just traffic from outside the cluster CIDR: backends see the node as the source.',
  },
};

export type Catalogue = typeof EN;
