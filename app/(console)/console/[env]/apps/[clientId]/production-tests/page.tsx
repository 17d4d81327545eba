import type { Metadata } from "next";
import { ProductionTests } from "@/components/production-tests/production-tests";

export const metadata: Metadata = { title: "Production tests" };

// Inside the app frame (../layout.tsx), which loads the app for useCurrentApp().
export default function ProductionTestsPage() {
  return <ProductionTests />;
}
