export const id = "x";
