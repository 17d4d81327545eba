"use client";
/**
 * The palette, built from the node-type catalog: each type is a button that adds the node at a
 * free spot and selects it (keyboard), and can be dragged onto the canvas (mouse).
 */
import type { DragEvent } from "react";
import { DRAG_TYPE } from "./canvas-constants";
import { NodeIcon } from "./node-style";
import type { TNodeTypeDef } from "./queries";

export function Palette({ catalog, onAdd }: { catalog: TNodeTypeDef[]; onAdd: (type: string) => void }) {
  return (
    <section aria-labelledby="wf-palette" className="space-y-2">
      <h2 id="wf-palette" className="text-sm font-semibold text-gray-900">
        Add a node
      </h2>
      <p className="text-xs text-gray-700">Drag onto the canvas, or press to add below the others.</p>
      <ul className="flex flex-wrap gap-2 lg:flex-col">
        {catalog.map((def) => (
          <li key={def.type}>
            <button
              type="button"
              draggable
              title={def.description}
              data-node-type={def.type}
              onDragStart={(e: DragEvent<HTMLButtonElement>) => {
                e.dataTransfer.setData(DRAG_TYPE, def.type);
                e.dataTransfer.effectAllowed = "copy";
              }}
              onClick={() => onAdd(def.type)}
              className="flex w-full cursor-grab items-center gap-2 rounded-md border border-gray-300 bg-white px-2 py-1.5 text-left text-sm font-medium text-gray-900 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              <NodeIcon type={def.type} />
              <span>
                <span className="sr-only">Add </span>
                {def.label}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
