"use client";

import { createContext, useContext, useEffect, useState, type ReactNode } from "react";

const KEY = "teamhub.team";
type TeamState = { team: string; setTeam: (team: string) => void };
const TeamContext = createContext<TeamState>({ team: "default", setTeam: () => {} });

/** The team every page shows: from `?team=` when a link names one, else the last one chosen. */
export function TeamProvider({ children }: { children: ReactNode }) {
  const [team, setTeamState] = useState("default");
  useEffect(() => {
    const fromUrl = new URLSearchParams(window.location.search).get("team");
    setTeamState(fromUrl ?? window.localStorage.getItem(KEY) ?? "default");
  }, []);
  const setTeam = (t: string) => {
    window.localStorage.setItem(KEY, t);
    setTeamState(t);
  };
  return <TeamContext.Provider value={{ team, setTeam }}>{children}</TeamContext.Provider>;
}

/** @example const { team } = useTeam(); useQuery({ queryKey: keys.sessions(team), … }) */
export const useTeam = () => useContext(TeamContext);
