// The SpeechEngines module; see ../shared/ARCHITECTURE.md for what lives here.
