/** The entry point of the bundled CLI (dist-cli/kube-proxy-lab.cjs), loaded by bin/. */
export { main } from './main';
export { warmUp } from './warm-up';
