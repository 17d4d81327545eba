import { describe, expect, it } from "vitest";
import { can, parseRole, PERMISSIONS, ROLES } from "./roles";

describe("roles", () => {
  it("grants exactly the documented table", () => {
    const table = Object.fromEntries(
      ROLES.map((role) => [
        role,
        Object.fromEntries(
          PERMISSIONS.map((p) => [
            p,
            `${can(role, p, "sandbox") ? "S" : "-"}${can(role, p, "production") ? "P" : "-"}`,
          ]),
        ),
      ]),
    );
    expect(table).toEqual({
      owner: {
        read: "SP",
        write: "SP",
        credentials: "SP",
        personal_data: "SP",
        team: "SP",
        team_owner: "SP",
      },
      admin: {
        read: "SP",
        write: "SP",
        credentials: "SP",
        personal_data: "SP",
        team: "SP",
        team_owner: "--",
      },
      developer: {
        read: "SP",
        write: "SP",
        credentials: "S-",
        personal_data: "--",
        team: "--",
        team_owner: "--",
      },
      viewer: {
        read: "SP",
        write: "--",
        credentials: "--",
        personal_data: "--",
        team: "--",
        team_owner: "--",
      },
    });
  });

  it("reads unknown stored roles as the least privileged", () => {
    expect(parseRole("member")).toBe("viewer");
    expect(parseRole("admin")).toBe("admin");
  });
});
