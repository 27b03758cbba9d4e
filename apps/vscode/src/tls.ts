import { readFile } from "node:fs/promises";
import { connect } from "node:tls";

/** The PEM of the certificate the server at `url` presents, read without trusting it (for pinning). */
export function presentedCertificate(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: hostname, port: Number(port || 443), servername: hostname, rejectUnauthorized: false },
      () => {
        const certificate = socket.getPeerCertificate();
        socket.end();
        if (!certificate?.raw) return reject(new Error("the server presented no certificate"));
        const base64 = certificate.raw.toString("base64").replace(/(.{64})/g, "$1\n");
        resolve(`-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`);
      },
    );
    socket.on("error", reject);
  });
}

/** A CA file's PEM text. */
export const readCa = (path: string): Promise<string> => readFile(path, "utf8");
