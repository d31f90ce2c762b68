// Stylesheets imported as text (`?raw`, rspack's asset/source): the remotes inject them where they are needed.
declare module '*.css?raw' {
  const text: string;
  export default text;
}
