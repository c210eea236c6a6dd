// Preloaded by `node --import` (test/cli-modules.test.ts): appends the URL of every module the
// process loads, one a line, to the file MODULE_TRACE_FILE names. ES modules are seen by a load
// hook (it runs on the loader's thread, hence the file), CommonJS ones by Module._load.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.MODULE_TRACE_FILE;
if (file) {
  const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(file)}, url + '\\n');
  return next(url, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const loaded = load.apply(this, arguments);
    try {
      const resolved = Module._resolveFilename(request, parent, isMain);
      appendFileSync(file, `${resolved.startsWith('/') ? pathToFileURL(resolved).href : resolved}\n`);
    } catch {}
    return loaded;
  };
}
