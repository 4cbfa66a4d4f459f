// Makes V8's code cache of the bundled CLI (see bin/load-cli.cjs). Run by build-cli.mjs in a
// fresh process, because the cache must be made under the V8 flags the command sets, and after
// a warm-up run, because V8 compiles functions when they are first called and the cache holds
// only the functions compiled by then. The same Node makes the same cache; another Node's V8
// rejects it and the command compiles the bundle as if there were none.
import { writeFileSync } from 'node:fs';
import { CODE_CACHE, loadBundle, setCompilerFlags } from '../bin/load-cli.cjs';

setCompilerFlags();
const { exports, script, digest } = loadBundle({ useCache: false });
await exports.warmUp();
writeFileSync(CODE_CACHE, Buffer.concat([digest, script.createCachedData()]));
