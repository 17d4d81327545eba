import path from "node:path";

/**
 * Root of the installation: where `.data/`, `prisma/` and `public/` live. The ignore hint keeps
 * the build's file tracing from treating the working directory as a dependency of every route.
 */
export const projectRoot = path.resolve(/* turbopackIgnore: true */ process.env.IDV_ROOT ?? process.cwd());
