import type { en } from "./en";

/** The shape every dictionary has: the English one's keys, with any wording. */
type Widen<T> = T extends string ? string : { [K in keyof T]: Widen<T[K]> };
export type TMessages = Widen<typeof en>;
