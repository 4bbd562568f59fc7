import { GENDER_LABELS, useGender } from "../lib/gender";
import type { Gender } from "../lib/gender-routing";

const ORDER: Gender[] = ["menswear", "womenswear", "both"];

/** `testIdPrefix`: the mobile menu's copy of the switch has its own test ids (the header's stays unique). */
export function GenderSwitch({ testIdPrefix = "gender-switch" }: { testIdPrefix?: string } = {}) {
  const { gender, setGender } = useGender();
  return (
    <div className="gender-switch" role="group" aria-label="Shop for">
      {ORDER.map((g) => (
        <button
          key={g}
          type="button"
          className="gender-switch__option"
          aria-pressed={gender === g}
          data-testid={`${testIdPrefix}-${g}`}
          onClick={() => setGender(g)}
        >
          {GENDER_LABELS[g]}
        </button>
      ))}
    </div>
  );
}
