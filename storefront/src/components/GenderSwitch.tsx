import { GENDER_LABELS, useGender } from "../lib/gender";
import type { Gender } from "../lib/gender-routing";

const ORDER: Gender[] = ["menswear", "womenswear", "both"];

export function GenderSwitch() {
  const { gender, setGender } = useGender();
  return (
    <div className="gender-switch" role="group" aria-label="Shop for">
      {ORDER.map((g) => (
        <button
          key={g}
          type="button"
          className="gender-switch__option"
          aria-pressed={gender === g}
          data-testid={`gender-switch-${g}`}
          onClick={() => setGender(g)}
        >
          {GENDER_LABELS[g]}
        </button>
      ))}
    </div>
  );
}
