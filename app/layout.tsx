import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers.tsx";
import "./globals.css";
import "./actions.css";
import "./transcript.css";

export const metadata: Metadata = { title: "Team Hub", description: "Control plane for teams of Claude Code sessions" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
