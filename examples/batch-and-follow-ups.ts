import { TeamHub } from "teamhub";

// The hub at TEAMHUB_URL (default http://127.0.0.1:3000) with TEAMHUB_TOKEN, on the team "default".
const hub = new TeamHub();

// Two sessions spawned in one call, each starting on its first task.
await hub.sessions.batch({
  sessions: [
    { name: "login-page", prompt: "Build the login page" },
    { name: "signup-page", prompt: "Build the signup page" },
  ],
});

// A follow-up waits for the turn it starts (after the first task's) and returns that turn's result.
const [login, signup] = await Promise.all([
  hub.session("login-page").send("Add form validation"),
  hub.session("signup-page").send("Add a password strength meter"),
]);
console.log(`login-page: ${login.text} ($${login.costUsd.toFixed(4)})`);
console.log(`signup-page: ${signup.text} ($${signup.costUsd.toFixed(4)})`);

for (const name of ["login-page", "signup-page"]) await hub.sessions.stop({ name });
