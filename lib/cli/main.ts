/** Entry of the `idv` command. */
import { serve } from "./serve";

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "serve") {
    const portIndex = rest.indexOf("--port");
    return serve({ dev: rest.includes("--dev"), port: portIndex >= 0 ? Number(rest[portIndex + 1]) : undefined });
  }
  console.error(`unknown command: ${command ?? "(none)"}`);
  return 2;
}
