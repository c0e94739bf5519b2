language-picker = Språk
