/** An `.html` import is the file's text: wrangler's default module rules make it a Text module. */
declare module "*.html" {
  const text: string;
  export default text;
}
