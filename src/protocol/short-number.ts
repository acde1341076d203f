/** A number as the model and a status line read it: "3", "2.5", "0.33" (never "0.3333333"). */
export const shortNumber = (value: number): string =>
  Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/\.?0+$/, "");
