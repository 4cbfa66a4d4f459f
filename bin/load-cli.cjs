// Loads the bundled CLI (dist-cli/kube-proxy-lab.cjs, built by `npm ci` / `npm run build:cli`)
// with V8's code cache of it when there is one. Shared by the command and by the build, which
// makes the cache: both must set the same V8 flags before compiling, or V8 rejects the cache.
// CommonJS, like the command: Node starts a CommonJS entry without setting up its ES module
// loader, some 20 ms sooner on a small machine.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { setFlagsFromString } = require('node:v8');
const { Script } = require('node:vm');

const BUNDLE = join(__dirname, '..', 'dist-cli', 'kube-proxy-lab.cjs');

/**
 * V8's code cache of the bundle: the bytecode of every function a warm-up run compiled, so a
 * run skips parsing the 1.2 MB bundle and compiling its functions one by one as they are first
 * called. Stored after the SHA-256 of the bundle it was made from: V8 itself checks only the
 * source's length, and a cache of another bundle must never be used.
 */
const CODE_CACHE = `${BUNDLE}.v8cache`;
const DIGEST_BYTES = 32;

/**
 * A run is short, and most of it used to go by before V8's optimising compiler had finished
 * the hot functions: with inlining, one compile of the restore-line parser took longer than
 * the whole sync it parses for, and on two cores the compiler thread took CPU from the run.
 * Without inlining each compile costs a fraction, the optimised code arrives sooner, and a
 * 1,000-Service run takes about 15% less CPU (10,000 Services: no slower). Set before the
 * bundle is compiled, so it holds however the command is started. Compiler flags only: the
 * same work is done, the same bytes printed.
 */
function setCompilerFlags() {
  try {
    setFlagsFromString('--no-turbo-inlining');
  } catch {
    // An engine that refuses the flag runs as it is.
  }
}

/**
 * The bundle's bytes and their digest. The build writes it as ASCII (scripts/build-cli.mjs),
 * which reads the same as Latin-1, without UTF-8's checks.
 */
function readBundle() {
  const bytes = readFileSync(BUNDLE);
  return { source: bytes.toString('latin1'), digest: createHash('sha256').update(bytes).digest() };
}

/** The cached data for this bundle, or undefined (none, or made from another bundle). */
function cachedDataFor(digest) {
  let file;
  try {
    file = readFileSync(CODE_CACHE);
  } catch {
    return undefined;
  }
  if (file.length <= DIGEST_BYTES || !file.subarray(0, DIGEST_BYTES).equals(digest))
    return undefined;
  return file.subarray(DIGEST_BYTES);
}

/**
 * Compiles and runs the bundle as Node runs a CommonJS module; returns its exports and the
 * compiled script. `useCache: false` compiles from source (the build, making the cache).
 */
function loadBundle({ useCache = true } = {}) {
  const { source, digest } = readBundle();
  const cachedData = useCache ? cachedDataFor(digest) : undefined;
  // The build wrote the bundle inside the wrapper Node puts around a CommonJS module: the
  // script is that function, which the bundle's require() calls and module.exports go through.
  const script = new Script(source, {
    filename: BUNDLE,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  // script.cachedDataRejected: another V8 version or other flags; V8 then compiled the source
  // as usual, lazily, and the run is only slower.
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  return { exports: module.exports, script, digest };
}

module.exports = { BUNDLE, CODE_CACHE, setCompilerFlags, readBundle, loadBundle };
