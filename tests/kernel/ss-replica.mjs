// Makes, in the namespace it runs in, the sockets a JSON plan on argv[2] lists for its side
// (tests/kernel/ss.test.ts), prints "ready" once they are in the states planned, and holds
// them until its standard input closes. Node's sockets are the kernel's: a listener on '::'
// with ipv6Only false is the dual-stack socket Go opens for ":PORT".
import dgram from 'node:dgram';
import net from 'node:net';

const plan = JSON.parse(process.argv[2]);
const held = [];
const waits = [];

const listening = (server, opts) => new Promise((resolve) => server.listen(opts, () => resolve()));

for (const item of plan) {
  if (item.kind === 'listen') {
    const server = net.createServer((c) => {
      held.push(c);
      // The peer closing first: close too (the active closer keeps the TIME-WAIT).
      c.on('end', () => c.end());
      c.on('error', () => undefined);
    });
    held.push(server);
    await listening(
      server,
      item.dual
        ? { host: '::', ipv6Only: false, port: item.port, backlog: item.backlog }
        : { host: item.host ?? '0.0.0.0', port: item.port, backlog: item.backlog },
    );
  } else if (item.kind === 'udp') {
    const s = dgram.createSocket(item.dual ? { type: 'udp6', ipv6Only: false } : 'udp4');
    held.push(s);
    await new Promise((resolve) => s.bind(item.port, item.dual ? '::' : '0.0.0.0', resolve));
    if (item.remote) await new Promise((resolve) => s.connect(item.remote[1], item.remote[0], resolve)); // prettier-ignore
  } else if (item.kind === 'connect' || item.kind === 'timewait') {
    const c = net.connect({
      host: item.remote[0],
      port: item.remote[1],
      localAddress: item.local[0],
      localPort: item.local[1],
    });
    held.push(c);
    c.on('error', (e) => process.stderr.write(`${e.message}\n`));
    await new Promise((resolve) => c.on('connect', resolve));
    if (item.kind === 'timewait') {
      waits.push(new Promise((resolve) => c.on('close', resolve)));
      c.end();
      c.resume();
    }
  }
}
await Promise.all(waits);
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
