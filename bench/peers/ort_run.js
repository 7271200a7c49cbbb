#!/usr/bin/env node
// ort_run.js - Time one ONNX model with onnxruntime-node on the CPU.
//
// The ONNX Runtime side of bench/peers.py. One process per measurement, so
// that every runtime is timed alone:
//
//   node ort_run.js MODEL.onnx --input NAME=FILE.npy [--input ...]
//        [--level disabled|basic|extended|all] [--threads 1]
//        [--warmup 3] [--runs 20] [--output FILE.npy] [--outputs DIR]
//
// Inputs are float32 C-order .npy files. The first output is written to
// --output as a .npy; --outputs writes every output to DIR/NAME.npy (of its
// element type; characters of NAME other than letters, digits, '.', '-'
// and '_' become '_'). Prints one JSON line on stdout: session
// creation time, min and median latency in ms, and the output's shape.
'use strict';

const fs = require('fs');
const ort = require('onnxruntime-node');

function fail(msg) {
  process.stderr.write('ort_run.js: ' + msg + '\n');
  process.exit(1);
}

// Reads a float32, C-order .npy file (format version 1.x or 2.x).
function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY')
    fail(path + ': not a .npy file');
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = buf.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) fail(path + ': bad .npy header');
  if (descr[1] !== '<f4') fail(path + ': expected float32 (<f4), got ' + descr[1]);
  if (fortran[1] !== 'False') fail(path + ': expected C order');
  const dims = shape[1].split(',').map(s => s.trim()).filter(s => s.length)
                   .map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  if (buf.length - start !== 4 * count) fail(path + ': size does not match shape');
  // Copy: the data offset need not be 4-byte aligned in the file buffer.
  const data = new Float32Array(count);
  Buffer.from(data.buffer).set(buf.subarray(start, start + 4 * count));
  return new ort.Tensor('float32', data, dims);
}

// The .npy type of each tensor type that writeNpy writes.
const NPY_DESCR = {float32: '<f4', float64: '<f8', int64: '<i8', int32: '<i4',
                   int8: '|i1', uint8: '|u1', bool: '|b1'};

// Writes a tensor as a version 1.0 .npy file.
function writeNpy(path, tensor) {
  const descr = NPY_DESCR[tensor.type];
  if (!descr) fail('output type ' + tensor.type + ' cannot be written');
  const dims = tensor.dims.map(Number);
  const shape = dims.length === 1 ? '(' + dims[0] + ',)' : '(' + dims.join(', ') + ')';
  let header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ', }';
  // Pad with spaces so that the data starts at a multiple of 64, ending in \n.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header + ' '.repeat(total - 10 - header.length - 1) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset,
                           tensor.data.byteLength);
  fs.writeFileSync(path, Buffer.concat([pre, Buffer.from(header, 'latin1'), data]));
}

function parseArgs(argv) {
  const opts = {inputs: {}, level: 'all', threads: 1, warmup: 3, runs: 20,
                output: null, outputs: null, model: null};
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) fail(a + ' needs a value');
      return argv[++i];
    };
    if (a === '--input') {
      const v = next();
      const eq = v.indexOf('=');
      if (eq <= 0) fail('--input expects NAME=FILE.npy, got ' + v);
      opts.inputs[v.slice(0, eq)] = v.slice(eq + 1);
    } else if (a === '--level') {
      opts.level = next();
    } else if (a === '--threads') {
      opts.threads = Number(next());
    } else if (a === '--warmup') {
      opts.warmup = Number(next());
    } else if (a === '--runs') {
      opts.runs = Number(next());
    } else if (a === '--output') {
      opts.output = next();
    } else if (a === '--outputs') {
      opts.outputs = next();
    } else if (a.startsWith('--')) {
      fail('unknown option ' + a);
    } else if (opts.model === null) {
      opts.model = a;
    } else {
      fail('more than one model given');
    }
  }
  if (opts.model === null) fail('no model given');
  if (!['disabled', 'basic', 'extended', 'all'].includes(opts.level))
    fail('--level must be disabled, basic, extended or all');
  if (!(opts.runs >= 1)) fail('--runs must be at least 1');
  return opts;
}

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(opts.model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: opts.level,
    executionMode: 'sequential',
    intraOpNumThreads: opts.threads,
    interOpNumThreads: opts.threads,
  });
  const createMs = Number(process.hrtime.bigint() - t0) / 1e6;

  const feeds = {};
  for (const name of session.inputNames) {
    if (!(name in opts.inputs)) fail('no --input for the model input ' + name);
    feeds[name] = readNpy(opts.inputs[name]);
  }
  for (const name of Object.keys(opts.inputs))
    if (!session.inputNames.includes(name)) fail('the model has no input ' + name);

  let results = null;
  for (let i = 0; i < opts.warmup; ++i) results = await session.run(feeds);
  const times = [];
  for (let i = 0; i < opts.runs; ++i) {
    const start = process.hrtime.bigint();
    results = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);

  const out = results[session.outputNames[0]];
  if (opts.output) writeNpy(opts.output, out);
  if (opts.outputs)
    for (const name of session.outputNames)
      writeNpy(opts.outputs + '/' + name.replace(/[^A-Za-z0-9._-]/g, '_') + '.npy',
               results[name]);
  process.stdout.write(JSON.stringify({
    runtime: 'onnxruntime-node ' + ort.env.versions.common,
    level: opts.level,
    create_ms: createMs,
    min_ms: times[0],
    median_ms: median(times),
    runs: opts.runs,
    output: session.outputNames[0],
    shape: out.dims.map(Number),
  }) + '\n');
}

main().catch(e => fail(String(e && e.stack || e)));
