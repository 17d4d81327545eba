"use client";
/**
 * The mutation behind a dialog that acts on one list item (revoke a key, revoke an invitation):
 * on success the queries under `refresh` are refetched, `toast(item)` is shown and the dialog
 * closes; closing resets the mutation, so its error leaves with the dialog.
 */
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useToast } from "@/components/ui/toast";

export function useItemAction<T>({
  action,
  refresh,
  toast,
  onClose,
}: {
  action: (item: T) => Promise<unknown>;
  refresh: QueryKey;
  toast: (item: T) => string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const toaster = useToast();
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: async (_, item) => {
      await queryClient.invalidateQueries({ queryKey: refresh });
      toaster.show({ message: toast(item) });
      close();
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return { mutation, close };
}
