import { describe, expect, it } from "vitest";
import { pushIdentifierFor, validatePushIdentifier } from "./push";

describe("push identifiers", () => {
  it("asks each provider for its own identifier", () => {
    expect(pushIdentifierFor("ee_smart_id").kind).toBe("personal_number");
    expect(pushIdentifierFor("dk_mitid").kind).toBe("user_id");
    expect(pushIdentifierFor("in_aadhaar_match").kind).toBe("aadhaar");
    expect(pushIdentifierFor("digital_id_app").kind).toBe("phone_number");
  });

  it("normalizes spaces and dashes and refuses what does not fit", () => {
    expect(validatePushIdentifier("digital_id_app", "+33 612-345 678")).toBe("+33612345678");
    expect(validatePushIdentifier("digital_id_app", "0612345678")).toBeNull();
    expect(validatePushIdentifier("ee_smart_id", "390 0101 0005")).toBe("39001010005");
    expect(validatePushIdentifier("ee_smart_id", "79001010005")).toBeNull();
    expect(validatePushIdentifier("in_aadhaar_match", "1234 5678 9012")).toBeNull();
    expect(validatePushIdentifier("dk_mitid", { value: "x" })).toBeNull();
  });

  it("accepts in the browser what the server accepts (HTML pattern ⊇ server pattern)", () => {
    for (const id of ["ee_smart_id", "dk_mitid", "in_aadhaar_match", "digital_id_app"]) {
      const spec = pushIdentifierFor(id);
      expect(new RegExp(`^(?:${spec.inputPattern})$`, "v").test(spec.example), id).toBe(true);
      expect(validatePushIdentifier(id, spec.example), id).toBe(spec.example);
    }
  });
});
