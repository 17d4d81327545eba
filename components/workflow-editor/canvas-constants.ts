/** The MIME type a palette item puts on a drag (shared by the palette and the canvas). */
export const DRAG_TYPE = "application/x-idv-workflow-node";
