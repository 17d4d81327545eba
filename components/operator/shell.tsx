"use client";
/**
 * The back-office frame: what it is (never mistaken for the console), navigation, the
 * environment switch (part of the URL, like the console's), and the user menu with the way back
 * to the console for operators who are also workspace members. From 360 px the navigation folds
 * behind a Menu button.
 */
import { FileSignature, Inbox, ShieldCheck } from "lucide-react";
// the overview pages' icons (kept on their own line beside the other sections')
import { Building2, ScrollText } from "lucide-react";
// the production-test and custom-domain pages' icons
import { FlaskConical, Globe } from "lucide-react";
// the connections page's icon
import { Plug } from "lucide-react";
import { useState, type ReactNode } from "react";
import { setApiWorkspace } from "@/components/console/api";
import { signOut } from "@/components/console/auth-client";
import { SignOutEverywhereButton, SignOutEverywhereDialog } from "@/components/console/sign-out-everywhere";
import { AccountMenu, AreaShell } from "@/components/ui/area-shell";
import { OperatorContextProvider, useOperator, type OperatorInfo } from "./context";

// only pages that exist; later sections of the back-office add themselves here
const NAV = [
  { label: "Activations", path: "/activations", icon: Inbox },
  { label: "Contracts", path: "/contracts", icon: FileSignature },
  { label: "Production tests", path: "/production-tests", icon: FlaskConical },
  { label: "Custom domains", path: "/custom-domains", icon: Globe },
  { label: "Connections", path: "/connections", icon: Plug },
  { label: "Workspaces", path: "/workspaces", icon: Building2 },
  { label: "Audit log", path: "/audit-log", icon: ScrollText },
] as const;

function OperatorUserMenu() {
  const info = useOperator();
  const [everywhereOpen, setEverywhereOpen] = useState(false);
  return (
    <AccountMenu
      id="operator-user-menu"
      dark
      email={info.user.email}
      summary="Operator · sessions last 2 hours"
      switchTo={info.hasWorkspace ? { href: `/console/${info.env}/dashboard`, label: "Console" } : undefined}
      onSignOut={() => signOut()}
      actions={(close) => (
        <SignOutEverywhereButton
          onClick={() => {
            close();
            setEverywhereOpen(true);
          }}
        />
      )}
      after={
        <SignOutEverywhereDialog
          env={info.env}
          path="/v1/operator/me/sign-out-everywhere"
          open={everywhereOpen}
          onClose={() => setEverywhereOpen(false)}
        />
      }
    />
  );
}

export function OperatorShell({ info, children }: { info: OperatorInfo; children: ReactNode }) {
  // operator endpoints are not scoped to a workspace
  setApiWorkspace(undefined);
  return (
    <OperatorContextProvider value={info}>
      <AreaShell
        area="operator"
        env={info.env}
        homeSection="activations"
        navLabel="Back-office"
        nav={NAV}
        dark
        banner={{ sandbox: "Sandbox tickets", production: "Production: live customers" }}
        brand={
          <>
            <ShieldCheck aria-hidden className="h-5 w-5 shrink-0 text-amber-300" />
            <span className="truncate">Back-office</span>
          </>
        }
        accountMenu={<OperatorUserMenu />}
      >
        {children}
      </AreaShell>
    </OperatorContextProvider>
  );
}
