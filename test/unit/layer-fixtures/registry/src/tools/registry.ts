export const findTool = (name: string): { name: string } | undefined => (name === "echo" ? { name } : undefined);
