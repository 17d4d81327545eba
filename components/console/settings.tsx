"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { Form, FormError, Input } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { api, ApiRequestError, formErrorMessage } from "./api";
import { useConsole } from "./context";
import { ChangePasswordDialog } from "./user-menu";

export function SettingsPage() {
  const info = useConsole();
  const router = useRouter();
  const toast = useToast();
  const [name, setName] = useState(info.workspace.name);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const rename = useMutation({
    mutationFn: () => api(info.env, "/v1/workspace", { method: "PATCH", body: { name } }),
    onSuccess: () => {
      toast.show({ message: "Workspace renamed" });
      router.refresh();
    },
  });
  const error = rename.error instanceof ApiRequestError ? rename.error : undefined;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Workspace">
          <Form className="space-y-4" onSubmit={() => rename.mutate()}>
            <Input
              label="Workspace name"
              required
              maxLength={100}
              value={name}
              disabled={!info.permissions.team}
              onChange={(e) => setName(e.target.value)}
              error={error?.fieldError("name")}
            />
            <FormError message={formErrorMessage(rename.error, "name")} />
            {info.permissions.team ? (
              <Button type="submit" disabled={name === info.workspace.name} pending={rename.isPending}>
                Save
              </Button>
            ) : (
              <p className="text-sm text-gray-600">Owners and admins can rename the workspace.</p>
            )}
            <CopyField label="Workspace ID" value={info.workspace.id} copyLabel="Copy workspace ID" />
          </Form>
        </Card>
        <Card title="Your account">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-gray-700">Email</dt>
            <dd className="break-all">{info.user.email}</dd>
            <dt className="font-medium text-gray-700">Role</dt>
            <dd>
              <Badge tone="blue">{info.role}</Badge>
            </dd>
          </dl>
          <div className="mt-4">
            <Button variant="secondary" onClick={() => setPasswordOpen(true)}>
              Change password
            </Button>
          </div>
        </Card>
      </div>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
