import { describe, expect, it } from "vitest";
import { cliActor, operatorActor, SYSTEM_ACTOR, userActor, workspaceActor } from "./actor";

describe("actor", () => {
  it("derives the actor of a workspace credential: API key or console user", () => {
    expect(workspaceActor({ actor: { type: "api_key", id: "key_1", name: "CI" } })).toEqual({
      type: "api_key",
      id: "key_1",
    });
    expect(workspaceActor({ actor: { type: "user", id: "usr_1", name: "Ada" } })).toEqual({
      type: "user",
      id: "usr_1",
    });
  });

  it("names an operator by their user id, and the others by what they are", () => {
    expect(operatorActor({ userId: "usr_op" })).toEqual({ type: "operator", id: "usr_op" });
    expect(userActor("usr_2")).toEqual({ type: "user", id: "usr_2" });
    expect(cliActor("usr_3")).toEqual({ type: "cli", id: "usr_3" });
    expect(cliActor()).toEqual({ type: "cli" });
    expect(SYSTEM_ACTOR).toEqual({ type: "system" });
  });
});
