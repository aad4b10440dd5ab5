"""Operations that are neither rules nor HTTP: opening, seating, starting, joining and leaving
games (`lobby`), forking, rematching and importing them (`copies`), and playing a command on the
state this process holds or one read from the store (`playing`). The API and the workers call
them, so a view only parses, calls one and answers; each takes the stores of `events` and
`players` and settings as values, and refuses with `application.errors`. The community features
to come (clocks, notifications, chat, ratings, tournaments) belong here too, beside these, not in
views or jobs."""
