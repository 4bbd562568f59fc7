/**
 * Intl formatters made once per locale and options. Making one costs about a millisecond (the
 * locale's data is looked up): a feed's cards each formatting with a new one added up on a phone.
 */
function cachedBy<O, F>(make: (locale: string | undefined, options: O) => F): (locale: string | undefined, options: O) => F {
  const made = new Map<string, F>();
  return (locale, options) => {
    const key = `${locale ?? ""}|${JSON.stringify(options)}`;
    let f = made.get(key);
    if (!f) {
      f = make(locale, options);
      made.set(key, f);
    }
    return f;
  };
}

export const numberFormat = cachedBy((locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options));
export const dateTimeFormat = cachedBy((locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options));
