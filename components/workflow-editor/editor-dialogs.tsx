"use client";
/**
 * The editor's two questions: someone else saved this workflow first (reload their version or
 * keep editing on top of it), and leaving with unsaved changes (they stay in this browser).
 */
import { formErrorMessage } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";

type TChoice = "theirs" | "mine";

export function ConflictDialog({
  conflict,
  resolving,
  error,
  onResolve,
  onClose,
}: {
  /** the API's message, or null when there is no conflict */
  conflict: string | null;
  /** the choice being carried out, if any */
  resolving: TChoice | null;
  error: unknown;
  onResolve: (choice: TChoice) => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={conflict !== null}
      onClose={onClose}
      title="Someone else saved this workflow"
      description={
        <>
          <p>{conflict}</p>
          <p className="mt-2">
            Your changes were not saved. Reload their version (your changes are dropped), or keep editing:
            your changes stay here, and saving again replaces their version with yours.
          </p>
        </>
      }
    >
      <FormError message={formErrorMessage(error)} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" pending={resolving === "mine"} onClick={() => onResolve("mine")}>
          Keep editing
        </Button>
        <Button pending={resolving === "theirs"} onClick={() => onResolve("theirs")}>
          Reload theirs
        </Button>
      </div>
    </Dialog>
  );
}

export function LeaveDialog({
  leaveTo,
  onStay,
  onLeave,
}: {
  /** where the held link goes, or null when nothing is held */
  leaveTo: string | null;
  onStay: () => void;
  onLeave: () => void;
}) {
  return (
    <Dialog
      open={leaveTo !== null}
      onClose={onStay}
      title="Leave without saving?"
      description="Your unsaved changes stay in this browser and are offered again when you come back."
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onStay}>
          Stay
        </Button>
        <Button variant="danger" onClick={onLeave}>
          Leave
        </Button>
      </div>
    </Dialog>
  );
}
