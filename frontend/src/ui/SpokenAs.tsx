/**
 * Short text for the eye, said in full to a screen reader ("High" / "High priority").
 * Two spans rather than a space-joined hidden suffix: accessible names trim edge spaces.
 */
import type { ReactNode } from "react";

export function SpokenAs({ spoken, children }: { spoken: string; children: ReactNode }) {
  return (
    <>
      <span aria-hidden="true">{children}</span>
      <span className="visually-hidden">{spoken}</span>
    </>
  );
}
