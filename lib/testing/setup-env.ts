/**
 * Tests change process.env at any time (before a file, between tests, inside one) and expect the
 * service to see it, while lib/config parses the environment once and keeps the result. This
 * setup file (both vitest projects) wraps process.env so that every assignment or deletion also
 * calls resetConfigForTests(): the next config() read parses the environment as it is then.
 * Values still land in the real environment (child processes inherit them). The wrapper is
 * installed once per worker process (workers run many test files).
 */
import { resetConfigForTests } from "../config";

declare global {
  var idvEnvWatched: boolean | undefined;
}

if (!globalThis.idvEnvWatched) {
  globalThis.idvEnvWatched = true;
  process.env = new Proxy(process.env, {
    set(target, name, value) {
      const done = Reflect.set(target, name, value);
      resetConfigForTests();
      return done;
    },
    deleteProperty(target, name) {
      const done = Reflect.deleteProperty(target, name);
      resetConfigForTests();
      return done;
    },
  });
}
resetConfigForTests();
