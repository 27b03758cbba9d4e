export { default } from "@kiln/vitest-config";
