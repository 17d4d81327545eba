import path from "node:path";

/** Root of the installation: where `.data/`, `prisma/` and `public/` live. */
export const projectRoot = path.resolve(process.env.IDV_ROOT ?? process.cwd());
