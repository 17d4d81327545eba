// Lets a node script load the service's own TypeScript modules (lib/**) with `await import(…)`:
// tsx's loader is registered here, once per process, before any such import runs.
import { register } from "tsx/esm/api";

register();
